import { AuthForm } from '../features/auth/AuthForm.tsx';

export default function LoginPage() {
  return <AuthForm key="login" mode="login" />;
}

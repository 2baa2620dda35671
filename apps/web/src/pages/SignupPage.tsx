import { AuthForm } from '../features/auth/AuthForm.tsx';

export default function SignupPage() {
  return <AuthForm key="signup" mode="signup" />;
}

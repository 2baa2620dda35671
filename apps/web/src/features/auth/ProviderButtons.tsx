import type { SignInProvider } from '@kathamala/domain';
import { signInPaths, useSignInProviders } from '../../api/signin.ts';
import { useI18n } from '../../i18n/index.tsx';
import styles from './providers.module.css';

/** The providers' own marks (Google's G, Facebook's f), drawn small beside the words. */
export function ProviderIcon({ provider }: { provider: SignInProvider }) {
  return provider === 'google' ? (
    <svg className={styles.icon} viewBox="0 0 48 48" aria-hidden="true">
      <path
        fill="#EA4335"
        d="M24 9.5c3.5 0 6.6 1.2 9.1 3.6l6.8-6.8C35.8 2.4 30.3 0 24 0 14.6 0 6.6 5.4 2.7 13.3l7.9 6.1C12.5 13.6 17.8 9.5 24 9.5z"
      />
      <path
        fill="#4285F4"
        d="M46.1 24.5c0-1.6-.1-3.1-.4-4.5H24v9h12.4c-.5 2.9-2.2 5.3-4.6 6.9l7.4 5.7c4.3-4 6.9-9.9 6.9-17.1z"
      />
      <path
        fill="#FBBC05"
        d="M10.5 28.6c-.5-1.4-.8-3-.8-4.6s.3-3.2.8-4.6l-7.9-6.1C1 16.6 0 20.2 0 24s1 7.4 2.7 10.7l7.8-6.1z"
      />
      <path
        fill="#34A853"
        d="M24 48c6.5 0 11.9-2.1 15.9-5.8l-7.4-5.7c-2.1 1.4-4.8 2.3-8.5 2.3-6.2 0-11.5-4.2-13.4-9.8l-7.9 6.1C6.6 42.6 14.6 48 24 48z"
      />
    </svg>
  ) : (
    <svg className={styles.icon} viewBox="0 0 48 48" aria-hidden="true">
      <circle cx="24" cy="24" r="24" fill="#1877F2" />
      <path
        fill="#fff"
        d="M33.3 31l1.1-7H27.6v-4.5c0-1.9.9-3.8 4-3.8h3.1v-6s-2.8-.5-5.5-.5c-5.6 0-9.3 3.4-9.3 9.6V24h-6.2v7h6.2v17c1.2.2 2.5.3 3.8.3s2.6-.1 3.8-.3V31h5.7z"
      />
    </svg>
  );
}

/**
 * "Continue with Google / Facebook" for the providers the server offers (none, no buttons).
 * Plain links: the server sends the browser to the provider and back to `redirect`.
 */
export function ProviderButtons(props: { redirect: string; row?: boolean; after?: 'or' }) {
  const { t } = useI18n();
  const providers = useSignInProviders();
  if (providers.length === 0) return null;
  return (
    <>
      <ul
        className={`${styles.providers} ${props.row ? styles.row : ''}`}
        aria-label={t('signin.providers')}
        role="list"
      >
        {providers.map((provider) => (
          <li key={provider}>
            <a
              className={styles.provider}
              href={signInPaths.start(provider, props.redirect)}
              data-provider={provider}
            >
              <ProviderIcon provider={provider} />
              {t(provider === 'google' ? 'signin.google' : 'signin.facebook')}
            </a>
          </li>
        ))}
      </ul>
      {props.after === 'or' && (
        <p className={styles.or} aria-hidden="true">
          {t('signin.or')}
        </p>
      )}
    </>
  );
}

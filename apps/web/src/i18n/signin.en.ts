/** English strings of sign-in with Google and Facebook and e-mail verification, spread into en.ts. */
export const signinEn = {
  'signin.google': 'Continue with Google',
  'signin.facebook': 'Continue with Facebook',
  'signin.or': 'or',
  'signin.providers': 'Sign in with another account',
  'signin.working': 'Signing you in…',
  'signin.error.cancelled': 'You cancelled signing in. Nothing was changed.',
  'signin.error.provider':
    'The provider could not sign you in just now. Please try again, or log in with your e-mail address.',
  'signin.error.state':
    'That sign-in could not be finished (it was started in another window or already used). Please start again.',
  'signin.error.expired': 'That sign-in took too long and has expired. Please start again.',
  'signin.error.code': 'That sign-in was already used. Please start again.',
  'signin.error.no_email':
    'The provider did not give us a confirmed e-mail address, so we cannot sign you in with it. Confirm your address with the provider, or join with your e-mail address.',
  'signin.error.link_required':
    'An account with this e-mail address already exists. Log in with its password, then link this provider on your Account page.',
  'signin.error.identity_taken': 'That account is already linked to another Kathamala account.',
  'signin.error.already_linked': 'Your account already has an account of this provider linked.',
  'signin.error.handoff':
    'That sign-in link has expired or was already used. Please sign in again.',
  'signin.account.title': 'Ways to sign in',
  'signin.account.help': 'Link Google or Facebook to sign in with one tap.',
  'signin.account.password': 'E-mail address and password',
  'signin.account.linkedAs': 'Linked ({email})',
  'signin.account.notLinked': 'Not linked',
  'signin.account.link': 'Link',
  'signin.account.unlink': 'Unlink',
  'signin.account.linked': '{provider} is now linked to your account.',
  'signin.account.unlinked': '{provider} is no longer linked.',
  'signin.email.verified': 'Your e-mail address {email} is verified.',
  'signin.email.unverified': 'Your e-mail address {email} is not verified yet.',
  'signin.email.send': 'Send a verification link',
  'signin.email.sending': 'Sending…',
  'signin.email.sent': 'We sent a link to {email}. Open it to verify your address.',
  'signin.email.done': 'Thank you: your e-mail address is verified.',
  'signin.provider.google': 'Google',
  'signin.provider.facebook': 'Facebook',
};

import type { signinEn } from './signin.en.ts';

/** Sinhala strings of sign-in with Google and Facebook, spread into si.ts (complete by type). */
export const signinSi: Record<keyof typeof signinEn, string> = {
  'signin.google': 'Google සමඟ ඉදිරියට',
  'signin.facebook': 'Facebook සමඟ ඉදිරියට',
  'signin.or': 'හෝ',
  'signin.providers': 'වෙනත් ගිණුමකින් පිවිසෙන්න',
  'signin.working': 'ඔබව පිවිසවමින්…',
  'signin.error.cancelled': 'ඔබ පිවිසීම අවලංගු කළා. කිසිවක් වෙනස් වුණේ නැහැ.',
  'signin.error.provider':
    'සේවාදායකයාට මේ මොහොතේ ඔබව පිවිසවීමට නොහැකි වුණා. නැවත උත්සාහ කරන්න, නැත්නම් ඔබේ ඊමේල් ලිපිනයෙන් පිවිසෙන්න.',
  'signin.error.state':
    'මෙම පිවිසීම නිම කළ නොහැකි වුණා (එය වෙනත් කවුළුවක ආරම්භ කළා හෝ දැනටමත් භාවිත කළා). නැවත ආරම්භ කරන්න.',
  'signin.error.expired': 'මෙම පිවිසීමට වැඩි කාලයක් ගත වී කල් ඉකුත් වුණා. නැවත ආරම්භ කරන්න.',
  'signin.error.code': 'මෙම පිවිසීම දැනටමත් භාවිත කර ඇත. නැවත ආරම්භ කරන්න.',
  'signin.error.no_email':
    'සේවාදායකයා තහවුරු කළ ඊමේල් ලිපිනයක් අපට ලබා දුන්නේ නැති නිසා එයින් ඔබව පිවිසවිය නොහැක. සේවාදායකයා සමඟ ඔබේ ලිපිනය තහවුරු කරන්න, නැත්නම් ඔබේ ඊමේල් ලිපිනයෙන් එක්වන්න.',
  'signin.error.link_required':
    'මෙම ඊමේල් ලිපිනය සහිත ගිණුමක් දැනටමත් ඇත. එහි මුරපදයෙන් පිවිස, ඔබේ ගිණුම් පිටුවෙන් මෙම සේවාදායකයා සම්බන්ධ කරන්න.',
  'signin.error.identity_taken': 'එම ගිණුම දැනටමත් වෙනත් කතාමාලා ගිණුමකට සම්බන්ධයි.',
  'signin.error.already_linked': 'ඔබේ ගිණුමට මෙම සේවාදායකයාගේ ගිණුමක් දැනටමත් සම්බන්ධයි.',
  'signin.error.handoff': 'මෙම පිවිසුම් සබැඳිය කල් ඉකුත් වී හෝ දැනටමත් භාවිත කර ඇත. නැවත පිවිසෙන්න.',
  'signin.account.title': 'පිවිසීමේ ක්‍රම',
  'signin.account.help': 'එක් තට්ටුවකින් පිවිසීමට Google හෝ Facebook සම්බන්ධ කරන්න.',
  'signin.account.password': 'ඊමේල් ලිපිනය සහ මුරපදය',
  'signin.account.linkedAs': 'සම්බන්ධයි ({email})',
  'signin.account.notLinked': 'සම්බන්ධ කර නැත',
  'signin.account.link': 'සම්බන්ධ කරන්න',
  'signin.account.unlink': 'විසන්ධි කරන්න',
  'signin.account.linked': '{provider} දැන් ඔබේ ගිණුමට සම්බන්ධයි.',
  'signin.account.unlinked': '{provider} තවදුරටත් සම්බන්ධ නැත.',
  'signin.email.verified': 'ඔබේ ඊමේල් ලිපිනය {email} තහවුරු කර ඇත.',
  'signin.email.unverified': 'ඔබේ ඊමේල් ලිපිනය {email} තවම තහවුරු කර නැත.',
  'signin.email.send': 'තහවුරු කිරීමේ සබැඳියක් එවන්න',
  'signin.email.sending': 'යවමින්…',
  'signin.email.sent': 'අපි {email} වෙත සබැඳියක් එව්වා. ඔබේ ලිපිනය තහවුරු කිරීමට එය විවෘත කරන්න.',
  'signin.email.done': 'ස්තූතියි: ඔබේ ඊමේල් ලිපිනය තහවුරු කළා.',
  'signin.provider.google': 'Google',
  'signin.provider.facebook': 'Facebook',
};

import type { MailMessage } from '../mail/transport.ts';
import { escapeHtml } from '../mail/service.ts';

/**
 * The verification e-mail, in English and Sinhala (we do not know which the reader reads). The
 * link carries its token in the fragment, so it never reaches a server's log.
 */
export const verificationMail = (m: { id: string; to: string; link: string }): MailMessage => {
  const en = [
    'Please confirm that this is your e-mail address for Kathamala:',
    'If you did not ask for this, you can ignore this e-mail. The link works once, for 24 hours.',
  ];
  const si = [
    'මෙය ඔබගේ කතාමාලා ගිණුමේ ඊමේල් ලිපිනය බව තහවුරු කරන්න:',
    'ඔබ මෙය ඉල්ලුවේ නැත්නම් මෙම ඊමේලය නොසලකා හරින්න. සබැඳිය පැය 24ක් තුළ එක් වරක් පමණක් ක්‍රියා කරයි.',
  ];
  const link = escapeHtml(m.link);
  return {
    id: m.id,
    to: m.to,
    subject: 'Confirm your e-mail address · ඊමේල් ලිපිනය තහවුරු කරන්න',
    text: `${en[0]}\n${m.link}\n\n${en[1]}\n\n${si[0]}\n${m.link}\n\n${si[1]}\n`,
    html:
      `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"></head>` +
      `<body style="font-family: sans-serif; line-height: 1.5">\n` +
      `<p>${en[0]}</p>\n<p><a href="${link}">${link}</a></p>\n<p>${en[1]}</p>\n<hr>\n` +
      `<p lang="si">${si[0]}</p>\n<p><a href="${link}">${link}</a></p>\n<p lang="si">${si[1]}</p>\n` +
      `</body></html>`,
  };
};

import type { Platform } from '../../platform.ts';
import { mailService } from './service.ts';
import { mailRoutes } from './routes.ts';
import { mailJobs } from './jobs.ts';
import { mailTransport } from './transport.ts';

/** The mailing list: sign-up, confirmation and sending, by jobs; returns where mail goes. */
export async function mailModule({ app, db, queue, keys, config, memory }: Platform) {
  const transport = mailTransport({
    smtpUrl: config.mail.smtpUrl,
    from: config.mail.from,
    dataDir: config.dataDir,
    memory,
  });
  const mail = mailService({ db, queue, keys, transport, publicUrl: config.publicUrl });
  mailRoutes(app, mail, { max: config.mail.requestMax, timeWindow: '1 minute' });
  await mailJobs(queue, mail);
  return transport;
}

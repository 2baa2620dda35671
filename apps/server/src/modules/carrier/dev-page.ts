import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { normalizeMobile, SHORT_CODES } from '@kathamala/domain';
import type { CarrierSimulator } from '../../adapters/simulator/simulator.ts';

/** Newest SMS shown; the file keeps them all. */
const SHOWN = 200;
const FORM_BYTES = 8 * 1024;

const escape = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
/** '94771234567' -> '077 123 4567', as a person reads it on a phone. */
const national = (m: string) =>
  /^94\d{9}$/.test(m) ? `0${m.slice(2, 4)} ${m.slice(4, 7)} ${m.slice(7)}` : m;
const when = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;

// No inline style or script: the page lives under the same CSP as the product.
const CSS = `
:root { color-scheme: light dark; --line: #8884; --muted: #777; --accent: #0a7d62; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, "Noto Sans Sinhala", "Iskoola Pota", sans-serif; }
main { max-width: 60rem; margin: 0 auto; padding: 1rem; }
h1 { font-size: 1.5rem; margin: 0.5rem 0 0.25rem; }
h2 { font-size: 1.1rem; margin: 0 0 0.75rem; }
.lede { color: var(--muted); margin: 0 0 1rem; }
.flash { border: 1px solid var(--accent); border-radius: 0.5rem; padding: 0.5rem 0.75rem; margin: 0 0 1rem; }
.forms { display: grid; gap: 1rem; grid-template-columns: repeat(auto-fit, minmax(17rem, 1fr)); margin-bottom: 1.5rem; }
form { border: 1px solid var(--line); border-radius: 0.75rem; padding: 1rem; display: grid; gap: 0.75rem; align-content: start; }
label { display: grid; gap: 0.25rem; font-size: 0.9rem; }
input, select, button { font: inherit; padding: 0.5rem 0.6rem; border: 1px solid var(--line); border-radius: 0.4rem; min-height: 2.75rem; }
fieldset { border: 0; padding: 0; margin: 0; display: flex; gap: 1rem; flex-wrap: wrap; }
fieldset label { display: flex; align-items: center; gap: 0.4rem; font-size: 1rem; }
fieldset input { min-height: auto; }
legend { font-size: 0.9rem; padding: 0; margin-bottom: 0.25rem; }
button { background: var(--accent); color: #fff; border: 0; cursor: pointer; font-weight: 600; }
ol { list-style: none; padding: 0; margin: 0 0 1.5rem; }
.sms { border-bottom: 1px solid var(--line); padding: 0.6rem 0; }
.meta { color: var(--muted); font-size: 0.85rem; display: flex; flex-wrap: wrap; gap: 0 0.75rem; }
.to { font-weight: 600; color: inherit; }
.text { margin: 0.2rem 0 0; white-space: pre-wrap; overflow-wrap: anywhere; }
table { width: 100%; border-collapse: collapse; font-size: 0.9rem; }
th, td { text-align: left; padding: 0.35rem 0.5rem 0.35rem 0; border-bottom: 1px solid var(--line); }
.scroll { overflow-x: auto; margin-bottom: 1.5rem; }
.empty { color: var(--muted); }
`;

function page(sim: CarrierSimulator, said: string | null): string {
  const sms = sim.outbox().reverse().slice(0, SHOWN);
  const apps = sim.apps();
  const subs = sim.subscribers().sort((a, b) => b.since.localeCompare(a.since));
  const appOptions = apps
    .map(
      (a) => `<option value="${escape(a.appId)}">${escape(a.name)} (${escape(a.keyword)})</option>`,
    )
    .join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>SMS outbox · carrier simulator</title>
<link rel="stylesheet" href="/dev/sms/style.css">
</head>
<body>
<main>
<h1>Carrier simulator</h1>
<p class="lede">Development only. The SMS the simulated carrier delivered, newest first, and what a phone or the carrier's billing would do.</p>
${said ? `<p class="flash" role="status">${escape(said)}</p>` : ''}
<section class="forms">
<form method="post" action="/dev/sms/send">
<h2>Send an SMS as a phone</h2>
<label>From (mobile number)<input name="from" inputmode="tel" autocomplete="off" required placeholder="077 123 4567"></label>
<label>To<select name="to"><option value="${SHORT_CODES.default}">${SHORT_CODES.default} (Dialog, Hutch, Etisalat, Airtel)</option><option value="${SHORT_CODES.mobitel}">${SHORT_CODES.mobitel} (Mobitel)</option></select></label>
<label>Text<input name="text" autocomplete="off" required placeholder="REG KATHAMALA or STOP"></label>
<button type="submit">Send SMS</button>
</form>
<form method="post" action="/dev/sms/charge">
<h2>Monthly charge</h2>
<label>Mobile number<input name="mobile" inputmode="tel" autocomplete="off" required placeholder="077 123 4567"></label>
<label>App<select name="appId">${appOptions}</select></label>
<fieldset><legend>Result</legend>
<label><input type="radio" name="result" value="ok" checked> Success</label>
<label><input type="radio" name="result" value="fail"> Failure</label>
</fieldset>
<button type="submit">Charge</button>
</form>
</section>
<h2>Outbox (${sms.length}${sms.length === SHOWN ? '+' : ''})</h2>
${
  sms.length === 0
    ? '<p class="empty">No SMS yet.</p>'
    : `<ol>${sms
        .map(
          (m) =>
            `<li class="sms"><div class="meta"><span class="to">${escape(national(m.to))}</span>${
              m.from ? `<span>from ${escape(m.from)}</span>` : ''
            }<time datetime="${escape(m.at)}">${escape(when(m.at))}</time></div><p class="text">${escape(m.text)}</p></li>`,
        )
        .join('\n')}</ol>`
}
<h2>Subscribers (${subs.length})</h2>
<div class="scroll"><table>
<thead><tr><th>Mobile</th><th>App</th><th>Status</th><th>Next charge</th></tr></thead>
<tbody>${subs
    .map(
      (s) =>
        `<tr><td>${escape(national(s.mobile))}</td><td>${escape(s.appId)}</td><td>${escape(s.status)}</td><td>${s.nextChargeAt ? escape(s.nextChargeAt.slice(0, 10)) : '—'}</td></tr>`,
    )
    .join('')}</tbody>
</table></div>
</main>
</body>
</html>`;
}

/** A form POST must come from this page: its Origin names this host (no cross-site forms). */
function sameOrigin(req: FastifyRequest): boolean {
  const origin = req.headers.origin;
  if (!origin || origin === 'null') return false;
  try {
    return new URL(origin).host === req.headers.host;
  } catch {
    return false;
  }
}

const back = (reply: FastifyReply, said: string) =>
  reply.redirect(`/dev/sms/?said=${encodeURIComponent(said)}`, 303);

const field = (body: unknown, name: string): string => {
  const v = (body as Record<string, unknown> | null)?.[name];
  return typeof v === 'string' ? v : '';
};

/**
 * The development SMS page (only while the simulator plays the carrier): the outbox, and forms
 * to text the short code as a phone would and to run a monthly charge.
 */
export async function devSmsRoutes(app: FastifyInstance, sim: CarrierSimulator) {
  await app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: FORM_BYTES },
      (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );
    const refuse = (reply: FastifyReply) =>
      reply
        .status(403)
        .type('text/plain; charset=utf-8')
        .send('This form only works from the development SMS page of this server.');

    scope.get('/dev/sms/', { schema: { hide: true } }, async (req, reply) => {
      const said = (req.query as { said?: unknown }).said;
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(page(sim, typeof said === 'string' ? said.slice(0, 300) : null));
    });
    scope.get('/dev/sms/style.css', { schema: { hide: true } }, async (_req, reply) =>
      reply.type('text/css; charset=utf-8').header('cache-control', 'no-cache').send(CSS),
    );
    scope.post('/dev/sms/send', { schema: { hide: true } }, async (req, reply) => {
      if (!sameOrigin(req)) return refuse(reply);
      const mobile = normalizeMobile(field(req.body, 'from'));
      const text = field(req.body, 'text').trim().slice(0, 1000);
      if (!mobile) return back(reply, 'That is not a Sri Lankan mobile number (07X XXX XXXX).');
      if (!text) return back(reply, 'Type the text of the SMS.');
      return back(reply, sim.phoneSends(mobile, text, field(req.body, 'to') || undefined));
    });
    scope.post('/dev/sms/charge', { schema: { hide: true } }, async (req, reply) => {
      if (!sameOrigin(req)) return refuse(reply);
      const mobile = normalizeMobile(field(req.body, 'mobile'));
      if (!mobile) return back(reply, 'That is not a Sri Lankan mobile number (07X XXX XXXX).');
      const appId = field(req.body, 'appId');
      return back(reply, sim.charge(appId, mobile, field(req.body, 'result') !== 'fail'));
    });
  });
}

import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { COMMUNITY, ENGAGEMENT } from '@kathamala/domain';
import { I18nProvider } from '../i18n/index.tsx';
import { ReportDialog } from '../features/comments/ReportDialog.tsx';
import { ReasonDialog } from './ReasonDialog.tsx';

const wrap = (node: ReactNode, lang: 'en' | 'si' = 'en') =>
  renderToStaticMarkup(
    <I18nProvider lang={lang} setLang={() => {}}>
      {node}
    </I18nProvider>,
  );

const send = () => Promise.resolve();
const close = () => {};

describe('ReasonDialog', () => {
  it('is a dialog labelled by its title, with the label, Cancel and the submit text', () => {
    const html = wrap(
      <ReasonDialog
        title="Remove this post"
        label="Reason"
        submitLabel="Remove post"
        send={send}
        onClose={close}
      />,
    );
    const id = /aria-labelledby="([^"]+)"/.exec(html)?.[1];
    expect(html).toMatch(/^<dialog /);
    expect(id).toBeTruthy();
    expect(html).toContain(`<h2 id="${id}"`);
    expect(html).toContain('>Remove this post</h2>');
    expect(html).toContain('Reason<textarea');
    expect(html).toContain('>Cancel</button>');
    expect(html).toContain('>Remove post</button>');
  });

  it('waits for a reason unless it is optional, and takes focus in the text box', () => {
    const required = wrap(
      <ReasonDialog title="T" label="L" submitLabel="S" send={send} onClose={close} />,
    );
    expect(required).toMatch(/<textarea[^>]* required/);
    expect(required).toMatch(/<textarea[^>]* autofocus/i);
    expect(required).toMatch(/<button type="submit"[^>]* disabled/);
    expect(required).toContain(`maxlength="${COMMUNITY.reasonChars}"`);
    expect(required).toContain('rows="3"');

    const optional = wrap(
      <ReasonDialog
        title="T"
        label="L"
        submitLabel="S"
        required={false}
        send={send}
        onClose={close}
      />,
    );
    expect(optional).not.toMatch(/<textarea[^>]* required/);
    expect(optional).not.toMatch(/<button type="submit"[^>]* disabled/);
  });

  it('keeps the callers’ words in Sinhala too', () => {
    const html = wrap(<ReportDialog onClose={close} />, 'si');
    expect(html).toContain('>මෙම ප්‍රතිචාරය වාර්තා කරන්න</h2>');
  });
});

describe('ReportDialog', () => {
  it('asks why with five radios, the first chosen, and optional words after it', () => {
    const html = wrap(<ReportDialog commentId={7} onClose={close} />);
    expect(html).toContain('>Report this response</h2>');
    expect(html).toContain('<legend class="visually-hidden">Why are you reporting it?</legend>');
    expect(html.match(/type="radio"/g)).toHaveLength(5);
    expect(html).toMatch(/type="radio"[^>]* checked/);
    for (const r of [
      'Spam or advertising',
      'Harassment or abuse',
      'Hate speech',
      'Spoiler',
      'Something else',
    ])
      expect(html).toContain(`/>${r}</label>`);
    expect(html).toContain('Anything else to add? (optional)<textarea');
    expect(html).toContain(`maxlength="${ENGAGEMENT.reportReasonChars - 40}"`);
    expect(html).toContain('rows="2"');
    // The first radio takes focus, not the text box; nothing is required.
    expect(html).not.toMatch(/<textarea[^>]* (autofocus|required)/i);
    expect(html).not.toMatch(/<button type="submit"[^>]* disabled/);
    expect(html).toContain('>Send report</button>');
  });

  it('reports a post or profile under its own title', () => {
    expect(wrap(<ReportDialog title="Report this post" send={send} onClose={close} />)).toContain(
      '>Report this post</h2>',
    );
  });
});

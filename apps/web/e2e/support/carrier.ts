import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, type APIRequestContext } from '@playwright/test';
import { apiPaths } from '@kathamala/domain';

/*
 * The carrier simulator as a phone sees it: the SMS it "sends" are lines of
 * DATA_DIR/sms-outbox.jsonl, so a journey reads the code the phone would have received.
 */

/** The server's data directory (set by playwright.config.ts). */
export const dataDir = () => {
  const dir = process.env.E2E_DATA_DIR;
  if (!dir) throw new Error('E2E_DATA_DIR is not set: run through playwright.config.ts');
  return dir;
};

let numbers = 0;

/** A Dialog number no other journey uses: as typed (077 1XX XXXX) and as the carrier writes it. */
export const newMobile = () => {
  const rest = `${Date.now() % 1_000_000}${numbers++}`.slice(-6).padStart(6, '0');
  return { typed: `077 1${rest.slice(0, 2)} ${rest.slice(2)}`, normalized: `94771${rest}` };
};

/** The code in the last SMS the carrier delivered to `mobile` (it may take a moment to land). */
export async function codeFromOutbox(mobile: string): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(
      () => {
        let raw: string;
        try {
          raw = readFileSync(path.join(dataDir(), 'sms-outbox.jsonl'), 'utf8');
        } catch {
          return undefined;
        }
        const last = raw
          .split('\n')
          .filter((line) => line.trim())
          .map((line) => JSON.parse(line) as { to: string; text: string })
          .filter((sms) => sms.to.replace(/^tel:/, '') === mobile)
          .at(-1);
        code = last?.text.match(/\b(\d{6})\b/)?.[1];
        return code;
      },
      { message: `an SMS with a code to ${mobile}` },
    )
    .toBeTruthy();
  return code!;
}

/** Joins `appId` through the API, as the wall does: the code comes from the outbox. */
export async function joinByApi(request: APIRequestContext, token: string, appId: string) {
  const mobile = newMobile();
  const headers = { authorization: `Bearer ${token}` };
  const sent = await request.post(apiPaths.memberSubscribe(), {
    headers,
    data: { mobile: mobile.typed, appId },
  });
  expect(sent.status()).toBe(200);
  const { refId } = ((await sent.json()) as { object: { refId: string } }).object;
  const mfaCode = await codeFromOutbox(mobile.normalized);
  const verified = await request.post(apiPaths.memberVerify(), {
    headers,
    data: { mfaCode, appId, refId },
  });
  expect(verified.status()).toBe(200);
  return mobile;
}

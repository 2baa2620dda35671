/** Sends SMS through the carrier (Ideamart-style `sms/send`), over HTTP. */
export interface SmsAdapter {
  /**
   * Sends `text` to each number (94XXXXXXXXX) from `appId`'s short code. `ref` is our id for
   * this message: the carrier drops a repeat with the same ref, so a retry after a crash
   * never delivers twice.
   */
  send(input: { to: string[]; text: string; appId: string; ref: string }): Promise<void>;
}

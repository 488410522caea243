/** Digits with the country code first (E.164: at most 15), optionally after a `+`. */
const PHONE_NUMBER = /^\+?([1-9][0-9]{6,14})$/;

/**
 * The E.164 form (`+` and digits) of a phone number given with its country code, or undefined
 * when it has another shape (letters, spaces, a leading 0, fewer than 7 or more than 15 digits).
 */
export function normalizePhoneNumber(raw: string): string | undefined {
  const m = PHONE_NUMBER.exec(raw);
  return m ? `+${m[1]}` : undefined;
}

/** The spellings an inbound call may dial: with and without the `+`. */
export function dialledForms(e164: string): string[] {
  return [e164, e164.slice(1)];
}

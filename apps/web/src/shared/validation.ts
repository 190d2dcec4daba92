/** Client-side rules of spec §5 and §9; the server checks the same and has the last word. */
export const MIN_PASSWORD_LENGTH = 6;
export const FUND_PASSWORD_LENGTH = 6;

/** A phone number without its dialling code: digits, optionally spaced or dashed, 5 to 15 digits. */
export function isValidPhone(v: string): boolean {
  return /^\d{5,15}$/.test(v.replace(/[\s-]/g, ''));
}

export function normalizePhone(v: string): string {
  return v.replace(/[\s-]/g, '');
}

export function isValidEmail(v: string): boolean {
  return /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(v.trim());
}

export function isFundPassword(v: string): boolean {
  return new RegExp(`^\\d{${FUND_PASSWORD_LENGTH}}$`).test(v);
}

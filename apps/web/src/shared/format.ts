/** 0812345678 → 081****678: enough to recognise one's own number, not to read it over a shoulder. */
export function maskPhone(phone: string): string {
  if (phone.length <= 5) return phone.replace(/.(?=.)/g, '*');
  const keepEnd = phone.length >= 9 ? 3 : 2;
  return `${phone.slice(0, 3)}${'*'.repeat(Math.max(2, phone.length - 3 - keepEnd))}${phone.slice(-keepEnd)}`;
}

/** someone@example.com → so***@example.com */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at <= 0) return email;
  const local = email.slice(0, at);
  const shown = local.length > 2 ? local.slice(0, 2) : local.slice(0, 1);
  return `${shown}***${email.slice(at)}`;
}

/** "+66 081****678" */
export function formatPhone(areaCode: string | null | undefined, phone: string): string {
  return areaCode ? `+${areaCode} ${maskPhone(phone)}` : maskPhone(phone);
}

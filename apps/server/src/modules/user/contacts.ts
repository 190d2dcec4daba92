import {
  type CountryCallingCode,
  type CountryCode,
  getCountries,
  getCountryCallingCode,
  parsePhoneNumberFromString,
} from 'libphonenumber-js/max';
import { invalid } from '../../http/errors.ts';

/** A normalised phone contact: dialling code without '+', national number digits only. */
export interface Phone {
  areaCode: string;
  mobile: string;
  /** How it is addressed for codes and SMS: '+66 812345678'. */
  target: string;
}

const EMAIL_RE = /^[^\s@]{1,64}@[^\s@.]+(?:\.[^\s@.]+)+$/;

/** E-mail addresses are compared and stored lower-cased and trimmed. */
export function parseEmail(input: string | undefined): string {
  const email = (input ?? '').trim().toLowerCase();
  if (!email) throw invalid('validation.emailRequired', 'email');
  if (email.length > 254 || !EMAIL_RE.test(email)) throw invalid('validation.emailInvalid', 'email');
  return email;
}

/** Validates a phone number for the given dialling code with libphonenumber's metadata. */
export function parsePhone(
  areaCodeInput: string | undefined,
  mobileInput: string | undefined,
  field = 'mobile',
): Phone {
  const raw = (mobileInput ?? '').replace(/[\s()-]/g, '');
  if (!raw) throw invalid('validation.mobileRequired', field);
  const areaCode = (areaCodeInput ?? '').replace(/^\+/, '').trim();
  if (!/^\d{1,4}$/.test(areaCode) || !CALLING_CODES.has(areaCode))
    throw invalid('validation.areaCodeInvalid', 'area_code');
  if (!/^\d{4,17}$/.test(raw)) throw invalid('validation.mobileInvalid', field);
  const parsed = parsePhoneNumberFromString(`+${areaCode}${raw.replace(/^0+/, '')}`);
  if (!parsed?.isValid() || parsed.countryCallingCode !== (areaCode as CountryCallingCode))
    throw invalid('validation.mobileInvalid', field);
  const mobile = parsed.nationalNumber;
  return { areaCode, mobile, target: `+${areaCode} ${mobile}` };
}

const COUNTRIES: CountryCode[] = getCountries();
const CALLING_CODES = new Set<string>(COUNTRIES.map((c) => getCountryCallingCode(c)));

/** Countries users pick first; the rest follow in name order. */
const FIRST: CountryCode[] = [
  'TH',
  'US',
  'GB',
  'JP',
  'KR',
  'ES',
  'CN',
  'HK',
  'TW',
  'SG',
  'MY',
  'VN',
  'ID',
  'PH',
];

export function areaCodes(locale: string): { area_code: string; country: string; name: string }[] {
  const names = new Intl.DisplayNames([locale], { type: 'region' });
  const all = COUNTRIES.map((c) => ({
    area_code: getCountryCallingCode(c),
    country: c,
    name: names.of(c) ?? c,
  }));
  const rank = (c: string) => {
    const i = FIRST.indexOf(c as CountryCode);
    return i < 0 ? FIRST.length : i;
  };
  return all.sort((a, b) => rank(a.country) - rank(b.country) || a.name.localeCompare(b.name, locale));
}

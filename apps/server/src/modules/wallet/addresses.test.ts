import { secp256k1 } from '@noble/curves/secp256k1.js';
import { hex } from '@scure/base';
import { HDKey } from '@scure/bip32';
import { describe, expect, it } from 'vitest';
import {
  bitcoinP2pkhAddress,
  chainFamily,
  ethereumAddress,
  isBitcoinAddress,
  isEthereumAddress,
  isTronAddress,
  normalizeAddress,
  toChecksumAddress,
  tronAddress,
} from './addresses.ts';
import { parseDepositKey, parseXpub } from './keys.ts';

// BIP32 test vector 1 (bitcoin/bips, bip-0032.mediawiki): seed 000102…0f.
const TV1_SEED = '000102030405060708090a0b0c0d0e0f';
const TV1_M_XPUB =
  'xpub661MyMwAqRbcFtXgS5sYJABqqG9YLmC4Q1Rdap9gSE8NqtwybGhePY2gZ29ESFjqJoCu1Rupje8YtGqsefD265TMg7usUDFdp6W1EGMcet8';
const TV1_M_PUBKEY = '0339a36013301597daef41fbe593a02cc513d0b55527ec2df1050e2e8ff49c85c2';
// chain m/0H and m/0H/1 of the same vector: the second is a non-hardened child of the first
const TV1_M0H_XPUB =
  'xpub68Gmy5EdvgibQVfPdqkBBCHxA5htiqg55crXYuXoQRKfDBFA1WEjWgP6LHhwBZeNK1VTsfTFUHCdrfp1bgwQ9xv5ski8PX9rL2dZXvgGDnw';
const TV1_M0H1_XPUB =
  'xpub6ASuArnXKPbfEwhqN6e3mwBcDTgzisQN1wXN9BJcM47sSikHjJf3UFHKkNAWbWMiGj7Wf5uMash7SyYq527Hqck2AxYysAA7xmALppuCkwQ';

// The public key of private key 1 is the generator point G of secp256k1.
const G_COMPRESSED = '0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798';

describe('deposit address encoders', () => {
  it('Bitcoin P2PKH: BIP32 test vector 1 master key → its published address', () => {
    const xpub = HDKey.fromExtendedKey(TV1_M_XPUB);
    expect(hex.encode(xpub.publicKey!)).toBe(TV1_M_PUBKEY);
    // the original BIP32 test vectors list this address for chain m (identifier 3442193e…)
    expect(bitcoinP2pkhAddress(xpub.publicKey!)).toBe('15mKKb2eos1hWa6tisdPwwDC1a5J1y9nma');
    // same key from the seed: the library and the vector agree
    expect(HDKey.fromMasterSeed(hex.decode(TV1_SEED)).publicExtendedKey).toBe(TV1_M_XPUB);
  });

  it('Bitcoin P2PKH of private key 1 (compressed G) is the well-known 1BgGZ9…', () => {
    expect(bitcoinP2pkhAddress(hex.decode(G_COMPRESSED))).toBe('1BgGZ9tcN4rm9KBzDn7KprQz87SZ26SAMH');
  });

  it('Ethereum: keccak of the uncompressed key, EIP-55 checksummed (private key 1 → 0x7E5F…)', () => {
    expect(ethereumAddress(hex.decode(G_COMPRESSED))).toBe('0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf');
    // the compressed and uncompressed forms of one key give one address
    const uncompressed = secp256k1.Point.fromBytes(hex.decode(G_COMPRESSED)).toBytes(false);
    expect(ethereumAddress(uncompressed)).toBe('0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf');
  });

  it('Tron: the same 20 bytes behind 0x41 in base58check', () => {
    // Computed independently (Python hashlib: base58check(0x41 ‖ 7e5f4552…5bdf) with double
    // SHA-256): the Ethereum account of private key 1 with the Tron prefix.
    expect(tronAddress(hex.decode(G_COMPRESSED))).toBe('TMVQGm1qAQYVdetCeGRRkTWYYrLXuHK2HC');
    expect(isTronAddress(tronAddress(hex.decode(G_COMPRESSED)))).toBe(true);
  });

  it('EIP-55: the examples of the EIP', () => {
    for (const a of [
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
      '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
      '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
      '0x52908400098527886E0F7030069857D2E4169EE7',
      '0x8617E340B3D01FA5F11F306F4090FD50E238070D',
      '0xde709f2102306220921060314715629080e2fb77',
      '0x27b1fdb04752bbc536007a920d24acb045561c26',
    ]) {
      // every example, the all-caps and all-lower ones included, is its own checksummed form
      expect(toChecksumAddress(a.toLowerCase()), a).toBe(a);
      expect(isEthereumAddress(a), a).toBe(true);
    }
    expect(toChecksumAddress('0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed')).toBe(
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    );
    expect(toChecksumAddress('0xfb6916095ca1df60bb79ce92ce3ea74c37c5d359')).toBe(
      '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
    );
  });
});

describe('deriving from an extended public key', () => {
  it('a non-hardened child of an xpub is the child of the private key (BIP32 m/0H → m/0H/1)', () => {
    expect(HDKey.fromExtendedKey(TV1_M0H_XPUB).deriveChild(1).publicExtendedKey).toBe(TV1_M0H1_XPUB);
  });

  it('refuses a private extended key in place of an xpub, without echoing it', () => {
    const xprv = HDKey.fromMasterSeed(hex.decode(TV1_SEED)).privateExtendedKey;
    expect(() => parseXpub('XPUB_BITCOIN', xprv)).toThrow(/PRIVATE extended key/);
    try {
      parseXpub('XPUB_BITCOIN', xprv);
    } catch (e) {
      expect(String(e)).not.toContain(xprv);
    }
    expect(() => parseXpub('XPUB_TRON', 'not-a-key')).toThrow(/not a valid BIP32 extended public key/);
    expect(parseXpub('XPUB_ETHEREUM', TV1_M_XPUB).publicExtendedKey).toBe(TV1_M_XPUB);
  });

  it('knows where a configured key sits below its master key: m for a master key, else its written origin', () => {
    expect(parseDepositKey('XPUB_BITCOIN', TV1_M_XPUB).path).toBe('m');
    // BIP 380 key origin: the master key's fingerprint (3442193e in vector 1) and the path to this key
    const withOrigin = parseDepositKey('XPUB_BITCOIN', `[3442193e/0']${TV1_M0H_XPUB}`);
    expect(withOrigin.key.publicExtendedKey).toBe(TV1_M0H_XPUB);
    expect(withOrigin.path).toBe("m/0'");
    expect(parseDepositKey('XPUB_BITCOIN', `[3442193e/0h]${TV1_M0H_XPUB}`).path).toBe("m/0'");
    expect(parseDepositKey('XPUB_BITCOIN', `[3442193e/0'/1]${TV1_M0H1_XPUB}`).path).toBe("m/0'/1");
    // below the master key without its origin, the full path of an address could not be recorded
    expect(() => parseDepositKey('XPUB_BITCOIN', TV1_M0H_XPUB)).toThrow(
      /XPUB_BITCOIN is at depth 1 below its master key: write it with its origin/,
    );
    // an origin that cannot be this key's (wrong depth, or a non-hardened step where it is hardened)
    expect(() => parseDepositKey('XPUB_BITCOIN', `[3442193e/44'/0']${TV1_M0H_XPUB}`)).toThrow(/origin path/);
    expect(() => parseDepositKey('XPUB_BITCOIN', `[3442193e/0]${TV1_M0H_XPUB}`)).toThrow(/origin path/);
    expect(() => parseDepositKey('XPUB_BITCOIN', `[deadbeef/0']${TV1_M0H_XPUB}`)).toThrow(
      /origin's fingerprint deadbeef is not the key's parent's/,
    );
  });
});

describe('withdrawal address validation', () => {
  it('knows the chain families of the currencies table', () => {
    expect(chainFamily('OMNI')).toBe('bitcoin');
    expect(chainFamily('BTC')).toBe('bitcoin');
    expect(chainFamily('ERC20')).toBe('ethereum');
    expect(chainFamily('trc20')).toBe('tron');
    expect(chainFamily('SOL')).toBeNull();
  });

  it('Bitcoin (OMNI): P2PKH, P2SH, bech32 v0 and bech32m v1; not a bad checksum or another network', () => {
    for (const a of [
      '1BgGZ9tcN4rm9KBzDn7KprQz87SZ26SAMH',
      '15mKKb2eos1hWa6tisdPwwDC1a5J1y9nma',
      '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy',
      // BIP 173 and BIP 350 examples
      'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
      'BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4',
      'bc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qccfmv3',
      'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0',
    ]) {
      expect(isBitcoinAddress(a), a).toBe(true);
    }
    for (const a of [
      '',
      '1BgGZ9tcN4rm9KBzDn7KprQz87SZ26SAMj', // one character changed: checksum fails
      'mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn', // testnet P2PKH
      'TMVQGm1qAQYVdetCeGRRkTWYYrLXuHK2HC', // Tron
      'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5', // bech32 checksum broken
      'bc1qW508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4', // mixed case
      'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx', // testnet bech32
      // v1 program written in bech32 instead of bech32m (BIP 350 invalid example)
      'bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7k7grplx',
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    ]) {
      expect(isBitcoinAddress(a), a).toBe(false);
    }
  });

  it('ERC20: one case carries no checksum; mixed case must match EIP-55', () => {
    expect(isEthereumAddress('0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed')).toBe(true);
    expect(isEthereumAddress('0x5AAEB6053F3E94C9B9A09F33669435E7EF1BEAED')).toBe(true);
    expect(isEthereumAddress('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toBe(true);
    // one letter's case flipped: the checksum catches it
    expect(isEthereumAddress('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD')).toBe(false);
    expect(isEthereumAddress('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe')).toBe(false);
    expect(isEthereumAddress('5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toBe(false);
    expect(isEthereumAddress('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeg')).toBe(false);
  });

  it('TRC20: base58check with the 0x41 prefix, starting with T', () => {
    expect(isTronAddress('TMVQGm1qAQYVdetCeGRRkTWYYrLXuHK2HC')).toBe(true);
    expect(isTronAddress('TMVQGm1qAQYVdetCeGRRkTWYYrLXuHK2HD')).toBe(false);
    // a valid base58check string with the Bitcoin prefix is not a Tron address
    expect(isTronAddress('1BgGZ9tcN4rm9KBzDn7KprQz87SZ26SAMH')).toBe(false);
    expect(isTronAddress('0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf')).toBe(false);
  });

  it('normalizes what it keeps: Ethereum checksummed, bech32 lower-case, whitespace trimmed', () => {
    expect(normalizeAddress('ERC20', ' 0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed ')).toBe(
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    );
    expect(normalizeAddress('OMNI', 'BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4')).toBe(
      'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
    );
    expect(normalizeAddress('TRC20', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toBeNull();
    expect(normalizeAddress('SOL', 'anything')).toBeNull();
  });
});

import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import en from '../../locales/en.json';
import { paths } from '../../shared/paths';
import { fetchStub, ok, renderPage } from '../../test/render';
import VerificationAdvancedPage from './VerificationAdvancedPage';
import VerificationBasicPage from './VerificationBasicPage';
import VerificationPage from './VerificationPage';

const submission = {
  id: 1,
  level: 'basic',
  status: 'rejected',
  country: 'TH',
  country_name: 'Thailand',
  name: 'Somchai',
  id_number: 'AB1234',
  address: '',
  reject_reason: 'The name does not match the ID',
  created_at: '2025-01-01T00:00:00.000Z',
  reviewed_at: '2025-01-02T00:00:00.000Z',
  front: null,
  back: null,
  holding: null,
};

const status = (over: object) =>
  ok({
    verification: 'none',
    advanced_verification: 'none',
    can_submit_basic: true,
    can_submit_advanced: false,
    basic: null,
    advanced: null,
    ...over,
  });

describe('identity verification', () => {
  it('lists both levels with their states', async () => {
    vi.stubGlobal('fetch', fetchStub({ 'user/real_name_status': status({ verification: 'pending' }) }).fn);
    renderPage(<VerificationPage />, paths.verification);
    expect(await screen.findByText(en.verificationState.pending)).toBeTruthy();
    expect(screen.getByText(en.verificationState.none)).toBeTruthy();
  });

  it('shows the reason of a rejection above the form to send again', async () => {
    vi.stubGlobal(
      'fetch',
      fetchStub({
        'user/real_name_status': status({ verification: 'rejected', basic: submission }),
        area_code: ok([{ area_code: '66', country: 'TH', name: 'Thailand' }]),
      }).fn,
    );
    renderPage(<VerificationBasicPage />, paths.verificationBasic);
    expect(await screen.findByText(/The name does not match the ID/)).toBeTruthy();
    expect(screen.getByRole('button', { name: en.kyc.submit })).toBeTruthy();
  });

  it('asks for basic verification before the advanced photos', async () => {
    vi.stubGlobal('fetch', fetchStub({ 'user/real_name_status': status({ verification: 'pending' }) }).fn);
    renderPage(<VerificationAdvancedPage />, paths.verificationAdvanced);
    expect(await screen.findByText(en.kyc.basicFirst)).toBeTruthy();
    expect(screen.queryByText(en.kyc.photo.front)).toBeNull();
  });
});

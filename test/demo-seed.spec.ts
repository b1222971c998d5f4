// npm start's demo with production's SITE_VERIFICATION=on: demo.localhost can never be proven, so
// the seed asks the API nothing and says what to do instead (start.e2e-spec.ts shows the banner).
import { describe, expect, it } from 'vitest';
import { seedDemo, VERIFICATION_ON_REASON } from '../scripts/demo-seed';

describe('seedDemo', () => {
  it('with SITE_VERIFICATION=on, seeds nothing and says how to prove a hostname instead', async () => {
    // Nothing listens on port 1: any request would fail the seed.
    const result = await seedDemo({
      apiUrl: 'http://127.0.0.1:1',
      adminApiKey: 'unused-admin-key-0123',
      dataDir: '/nonexistent',
      siteVerification: 'on',
    });
    expect(result).toEqual({ status: 'unavailable', reason: VERIFICATION_ON_REASON });
    expect(VERIFICATION_ON_REASON).toMatch(/POST \/v1\/sites\/<id>\/verify/);
  });
});

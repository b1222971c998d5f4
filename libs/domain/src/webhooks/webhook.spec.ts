import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import {
  buildFinishedEvent,
  importFinishedEvent,
  parseWebhookEvent,
  siteVerificationEvent,
  webhookEventId,
} from './webhook-event';
import { generateWebhookSecret, isValidWebhookSecret, signWebhook } from './webhook-signature';

const siteId = '4b0d6c1e-8f2a-4c3b-9d5e-6f7a8b9c0d1e';
const buildId = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';

describe('webhook signature', () => {
  it('is v1,<base64 HMAC-SHA256 of id.timestamp.body> keyed with the decoded secret', () => {
    const secret = generateWebhookSecret();
    const body = '{"type":"build.published"}';
    const at = new Date('2026-11-25T08:00:00.500Z');
    const headers = signWebhook(secret, 'evt_x', body, at);
    expect(headers['webhook-timestamp']).toBe(String(Math.floor(at.getTime() / 1000)));
    const expected = createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64'))
      .update(`evt_x.${headers['webhook-timestamp']}.${body}`)
      .digest('base64');
    expect(headers['webhook-signature']).toBe(`v1,${expected}`);
  });

  it("verifies with the spec's own library, and fails with another secret", () => {
    const secret = generateWebhookSecret();
    const body = JSON.stringify({ a: 1 });
    const headers = signWebhook(secret, 'evt_y', body, new Date());
    expect(new Webhook(secret).verify(body, { ...headers })).toEqual({ a: 1 });
    expect(() => new Webhook(generateWebhookSecret()).verify(body, { ...headers })).toThrow();
  });

  it('accepts secrets of 24 to 64 bytes behind whsec_, nothing else', () => {
    expect(isValidWebhookSecret(generateWebhookSecret())).toBe(true);
    expect(isValidWebhookSecret(`whsec_${Buffer.alloc(24).toString('base64')}`)).toBe(true);
    expect(isValidWebhookSecret(`whsec_${Buffer.alloc(64).toString('base64')}`)).toBe(true);
    expect(isValidWebhookSecret(`whsec_${Buffer.alloc(23).toString('base64')}`)).toBe(false);
    expect(isValidWebhookSecret(`whsec_${Buffer.alloc(65).toString('base64')}`)).toBe(false);
    expect(isValidWebhookSecret(Buffer.alloc(32).toString('base64'))).toBe(false);
    expect(isValidWebhookSecret('whsec_not*base64')).toBe(false);
  });
});

describe('webhook events', () => {
  it('builds events that parse with the one schema, with ids derived from what happened', () => {
    const published = parseWebhookEvent({
      ...buildFinishedEvent({ siteId, buildId, status: 'published' }),
      timestamp: new Date().toISOString(),
    });
    expect(published).toMatchObject({
      type: 'build.published',
      id: webhookEventId('build.published', buildId),
      data: { siteId, buildId, status: 'published', error: null },
    });
    expect(buildFinishedEvent({ siteId, buildId, status: 'failed', error: 'x' })).toMatchObject({
      type: 'build.failed',
      data: { error: 'x' },
    });
    const result = { id: buildId, status: 'completed', stored: 2, rejected: 1, changed: 2, deleted: 0, error: null };
    expect(importFinishedEvent(siteId, 'upload', result)).toMatchObject({
      type: 'import.finished',
      id: webhookEventId('import.finished', buildId),
    });
    expect(importFinishedEvent(siteId, 'upload', { ...result, status: 'running' })).toBeUndefined();
    const at = new Date('2026-11-25T08:00:00Z');
    const lost = siteVerificationEvent(
      'site.verification_lost',
      { siteId, hostname: 'a.example.com' },
      at,
      'TXT record gone',
    );
    expect(parseWebhookEvent(lost)).toMatchObject({ timestamp: at.toISOString(), data: { reason: 'TXT record gone' } });
    // No `.` in ids: the spec signs `id.timestamp.body`.
    expect(lost.id).not.toContain('.');
    expect(
      siteVerificationEvent('site.verified', { siteId, hostname: 'a.example.com' }, new Date(at.getTime() + 1)).id,
    ).not.toBe(siteVerificationEvent('site.verified', { siteId, hostname: 'a.example.com' }, at).id);
  });

  it('refuses an event whose data does not match its type', () => {
    expect(() =>
      parseWebhookEvent({
        id: 'evt_a',
        type: 'build.published',
        timestamp: new Date().toISOString(),
        data: { siteId },
      }),
    ).toThrow();
    expect(() =>
      parseWebhookEvent({
        id: 'evt.a',
        type: 'webhook.test',
        timestamp: new Date().toISOString(),
        data: { endpointId: siteId, message: 'x' },
      }),
    ).toThrow();
  });
});

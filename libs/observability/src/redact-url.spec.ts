import { describe, expect, it } from 'vitest';
import { redactPath, redactUrl, redactUrls } from './redact-url';

describe('redactUrl', () => {
  it('drops userinfo and the values of secret-looking query parameters, keeping the rest', () => {
    expect(redactUrl('https://user:p%40ss@hooks.example.com/in?token=abc&site=1')).toBe(
      'https://hooks.example.com/in?token=REDACTED&site=1',
    );
    expect(redactUrl('https://hooks.example.com/in?api_key=1&apiKey=2&X-Amz-Signature=3&access_token=4&page=2')).toBe(
      'https://hooks.example.com/in?api_key=REDACTED&apiKey=REDACTED&X-Amz-Signature=REDACTED&access_token=REDACTED&page=2',
    );
    expect(redactUrl('https://hooks.example.com/in?site=1')).toBe('https://hooks.example.com/in?site=1');
    expect(redactUrl('not a url')).toBe('not a url');
  });

  it('redacts a request path and every URL in a text', () => {
    expect(redactPath('/v1/x?token=abc&page=2')).toBe('/v1/x?token=REDACTED&page=2');
    expect(redactPath('/v1/x')).toBe('/v1/x');
    expect(
      redactUrls(
        'delivery 1 to https://u:pw@a.example.com/h?secret=s failed: answered 500 (see http://b.example.com/?sig=x).',
      ),
    ).toBe(
      'delivery 1 to https://a.example.com/h?secret=REDACTED failed: answered 500 (see http://b.example.com/?sig=REDACTED).',
    );
  });
});

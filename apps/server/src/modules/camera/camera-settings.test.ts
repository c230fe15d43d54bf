import { describe, expect, it } from 'vitest';
import { consolePolicy } from '../../plugins/security-headers';
import { cameraMediaSources, cameraSettingsFrom } from './camera-module';
import { maskKey } from './platform-accounts.service';

describe('camera settings', () => {
  it('defaults to the real EZVIZ API and takes overrides from the environment', () => {
    expect(cameraSettingsFrom({})).toMatchObject({
      ezvizBaseUrl: 'https://open.ys7.com',
      timeoutMs: 8000,
      allowHosts: '',
    });
    expect(
      cameraSettingsFrom({ EZVIZ_BASE_URL: 'http://127.0.0.1:9', CAMERA_TIMEOUT_MS: 'x' }),
    ).toMatchObject({
      ezvizBaseUrl: 'http://127.0.0.1:9',
      timeoutMs: 8000,
    });
  });

  it('adds only https hosts of CAMERA_MEDIA_SOURCES to connect-src and media-src', () => {
    const sources = cameraMediaSources({
      CAMERA_MEDIA_SOURCES:
        "https://*.ys7.com, http://plain.example.com * 'unsafe-inline' https://nvr.example.com:8443",
    });
    expect(sources).toEqual(['https://*.ys7.com', 'https://nvr.example.com:8443']);
    const policy = consolePolicy('', "'none'", sources.join(' '));
    expect(policy).toContain("connect-src 'self' https://*.ys7.com https://nvr.example.com:8443");
    expect(policy).toContain("media-src 'self' blob: https://*.ys7.com https://nvr.example.com:8443");
    expect(consolePolicy('', "'none'")).toContain("connect-src 'self';");
  });

  it('masks an app key so that two keys can be told apart but not used', () => {
    expect(maskKey('ezviz-app-key-1234')).toBe('ez****34');
    expect(maskKey('abcd')).toBe('****');
  });
});

import { ReloadOutlined, VideoCameraOutlined } from '@ant-design/icons';
import { Alert, Button, Spin } from 'antd';
import type HlsType from 'hls.js/light';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchLiveAddress, refusalOf } from './api';

/** After a dropped stream the player asks for a new address this often, this many times. */
const RECONNECT_MS = 3000;
const MAX_RECONNECTS = 5;

type State =
  | { kind: 'loading' }
  | { kind: 'playing' }
  | { kind: 'refused'; message: string }
  | { kind: 'failed' };

/**
 * The live view of one camera: asks the server for the address (a platform's address expires, so
 * it is asked again after a drop), plays HLS with hls.js or the browser's own HLS (Safari), and
 * reconnects on its own a few times. A platform's refusal is shown in its words with a retry.
 */
export function LivePlayer({ cameraId, compact = false }: { cameraId: string; compact?: boolean }) {
  const { t } = useTranslation();
  const video = useRef<HTMLVideoElement>(null);
  const [state, setState] = useState<State>({ kind: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const reconnects = useRef(0);
  const retry = useCallback(() => {
    reconnects.current = 0;
    setAttempt((n) => n + 1);
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is the restart signal (retry, reconnect).
  useEffect(() => {
    let hls: HlsType | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const element = video.current;
    const reconnect = () => {
      if (stopped) return;
      if (reconnects.current >= MAX_RECONNECTS) return setState({ kind: 'failed' });
      reconnects.current += 1;
      setState({ kind: 'loading' });
      timer = setTimeout(() => setAttempt((n) => n + 1), RECONNECT_MS);
    };
    setState({ kind: 'loading' });
    void (async () => {
      let url: string;
      try {
        url = (await fetchLiveAddress(cameraId)).url;
      } catch (error) {
        const message = refusalOf(error);
        if (!stopped) setState(message ? { kind: 'refused', message } : { kind: 'failed' });
        return;
      }
      if (stopped || !element) return;
      const onPlaying = () => {
        reconnects.current = 0;
        setState({ kind: 'playing' });
      };
      element.addEventListener('playing', onPlaying, { once: true });
      const { default: Hls } = await import('hls.js/light');
      if (stopped) return;
      if (Hls.isSupported()) {
        hls = new Hls({ liveDurationInfinity: true });
        hls.on(Hls.Events.ERROR, (_event, data) => {
          if (!data.fatal) return;
          if (data.type === Hls.ErrorTypes.MEDIA_ERROR) hls?.recoverMediaError();
          else {
            hls?.destroy();
            hls = null;
            reconnect();
          }
        });
        hls.loadSource(url);
        hls.attachMedia(element);
      } else if (element.canPlayType('application/vnd.apple.mpegurl')) {
        element.src = url;
        element.addEventListener('error', reconnect, { once: true });
      } else {
        setState({ kind: 'refused', message: t('camera.player.unsupported') });
        return;
      }
      element.play().catch(() => undefined);
    })();
    return () => {
      stopped = true;
      clearTimeout(timer);
      hls?.destroy();
    };
  }, [cameraId, attempt, t]);

  return (
    <div
      className="cc-camera-player"
      style={{ position: 'relative', background: '#000', aspectRatio: '16 / 9', width: '100%' }}
    >
      {/* Muted, so that browsers let it start on its own; a looping clip (the demo) starts over. */}
      <video
        ref={video}
        muted
        autoPlay
        playsInline
        loop
        controls={!compact}
        aria-label={t('camera.player.label')}
        data-testid={`camera-video-${cameraId}`}
        style={{ width: '100%', height: '100%', display: 'block' }}
      />
      {state.kind === 'loading' && (
        <div style={{ position: 'absolute', inset: 0, display: 'grid', placeItems: 'center' }}>
          <Spin aria-label={t('camera.player.connecting')} />
        </div>
      )}
      {(state.kind === 'refused' || state.kind === 'failed') && (
        <div style={{ position: 'absolute', inset: 0, display: 'grid', placeItems: 'center', padding: 8 }}>
          <Alert
            type="warning"
            showIcon
            icon={<VideoCameraOutlined />}
            data-testid={`camera-refused-${cameraId}`}
            title={state.kind === 'refused' ? state.message : t('camera.player.failed')}
            action={
              <Button size="small" icon={<ReloadOutlined />} onClick={retry}>
                {t('camera.player.retry')}
              </Button>
            }
          />
        </div>
      )}
    </div>
  );
}

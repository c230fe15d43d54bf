import { App } from 'antd';
import { useCallback } from 'react';
import type { Notice } from '../api/request';

/** Toasts through antd's App context so they follow the theme and locale of ConfigProvider. */
export function useNotify(): (notice: Notice) => void {
  const { message } = App.useApp();
  return useCallback(
    (notice: Notice) => {
      void message.open({ type: notice.type, content: notice.content, duration: notice.duration });
    },
    [message],
  );
}

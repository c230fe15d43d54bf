import type { ThemeConfig } from 'antd';

/**
 * Ant Design's defaults with the colours and sizes that fall short of WCAG 2.2 AA changed in one
 * place (issue 20: Lighthouse flagged colour contrast and touch targets). Every text colour here
 * reaches 4.5:1 on white and on the page's grey (#f5f5f5):
 * - the primary blue is blue-7 (#0958d9, 5.9:1) instead of blue-6 (#1677ff, 4.1:1), so links,
 *   primary buttons (white on blue) and selected tabs are readable;
 * - secondary and tertiary text (descriptions, empty states, breadcrumbs, table headers' sort
 *   hints) is 65% black (#595959, 7:1) instead of 45% (3.4:1);
 * - tag text uses a darker shade where the palette's 7th was too light on its 1st-shade
 *   background (green, gold, orange, cyan, lime, volcano, yellow);
 * - success, warning and error text (and the bell's badge, white on red) reach 4.5:1 too.
 * Touch targets: controls are at least 32 px high (small ones 24 px, the WCAG 2.2 minimum).
 */
export const appTheme: ThemeConfig = {
  token: {
    colorPrimary: '#0958d9',
    colorLink: '#0958d9',
    colorInfo: '#0958d9',
    colorSuccess: '#237804',
    colorWarning: '#ad4e00',
    colorError: '#cf1322',
    colorTextSecondary: 'rgba(0, 0, 0, 0.65)',
    colorTextTertiary: 'rgba(0, 0, 0, 0.65)',
    colorTextDescription: 'rgba(0, 0, 0, 0.65)',
    colorTextPlaceholder: 'rgba(0, 0, 0, 0.55)',
    controlHeightSM: 24,
    // Tags draw their text in the 7th shade of each preset colour on its 1st: these shades reach
    // 4.5:1 there (red, blue, geekblue, purple and magenta already do).
    volcano7: '#ad2102',
    orange7: '#ad4e00',
    gold7: '#874d00',
    yellow7: '#876800',
    lime7: '#3f6600',
    green7: '#237804',
    cyan7: '#006d75',
  },
  components: {
    Breadcrumb: {
      itemColor: 'rgba(0, 0, 0, 0.65)',
      separatorColor: 'rgba(0, 0, 0, 0.65)',
      lastItemColor: 'rgba(0, 0, 0, 0.88)',
      linkColor: 'rgba(0, 0, 0, 0.65)',
    },
    Menu: {
      // The dark sidebar's idle items: 65% white on #001529 is 7.4:1 already; hover stays white.
      darkItemColor: 'rgba(255, 255, 255, 0.75)',
      darkItemSelectedBg: '#0958d9',
    },
  },
};

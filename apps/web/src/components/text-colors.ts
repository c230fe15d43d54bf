/**
 * Text colours by antd preset name that reach WCAG AA's 4.5:1 on white and on a preset tag's
 * light background (issue 20: axe flagged the home figures drawn in antd's 6th shades, 2.3:1 for
 * green). Shapes (markers, borders, chart lines) keep the brighter 6th shades; text uses these.
 */
export const READABLE_TEXT: Record<string, string> = {
  green: '#237804',
  red: '#cf1322',
  volcano: '#ad2102',
  orange: '#ad4e00',
  gold: '#874d00',
  blue: '#0958d9',
  geekblue: '#1d39c4',
  purple: '#531dab',
  cyan: '#006d75',
};

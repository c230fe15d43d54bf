/** Spec section 9, "Default layout": sidebar logo on, fixed header off. */
export const layoutSettings = {
  sidebarLogo: true,
  fixedHeader: false,
  /** Width of the collapsed desktop sidebar (icons only). */
  collapsedWidthPx: 64,
} as const;

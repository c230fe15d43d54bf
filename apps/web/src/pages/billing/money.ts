import i18n from '../../i18n';

/**
 * Spec section 9: "RM in English, yuan in Chinese". The amount is the same number in both
 * languages; only the currency's name changes (docs/decisions.md, "Prices and currency").
 */
export function formatAmount(amount: number): string {
  const text = amount.toFixed(2);
  return i18n.language.startsWith('zh') ? `${text} 元` : `RM ${text}`;
}

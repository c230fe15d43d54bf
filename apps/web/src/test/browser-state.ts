import Cookies from 'js-cookie';

/** What a browser remembers between page loads (the token, the language, the account): forgotten. */
export function resetBrowserState() {
  localStorage.clear();
  for (const name of Object.keys(Cookies.get())) Cookies.remove(name);
}

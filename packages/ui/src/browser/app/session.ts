/**
 * The personal API key of this tab. Session storage: it goes with the tab,
 * is never sent anywhere but this server's API, and never lands in a URL.
 */
const KEY = 'sightline.personalApiKey'

export const session = {
  key(storage: Storage = sessionStorage): string | null {
    return storage.getItem(KEY)
  },
  signIn(key: string, storage: Storage = sessionStorage): void {
    storage.setItem(KEY, key)
  },
  signOut(storage: Storage = sessionStorage): void {
    storage.removeItem(KEY)
  },
}

import { el } from '../dom.js'
import { ApiError, createApi } from './api-client.js'

/** The sign-in form: a personal API key, checked against `api/users/@me/` before it is kept. */
export function signInForm(main: HTMLElement, base: string, accepted: (key: string) => void): void {
  const doc = main.ownerDocument
  const input = el(doc, 'input', { id: 'sightline-key', name: 'key', type: 'password', autocomplete: 'off', required: true, spellcheck: 'false', 'aria-describedby': 'sightline-key-help' })
  const error = el(doc, 'p', { class: 'sightline-error', role: 'alert', hidden: true })
  const submit = el(doc, 'button', { type: 'submit', text: 'Sign in' })
  const form = el(
    doc,
    'form',
    { class: 'sightline-sign-in', 'aria-labelledby': 'sightline-sign-in-title' },
    el(doc, 'h2', { id: 'sightline-sign-in-title', tabindex: -1, text: 'Sign in' }),
    el(doc, 'label', { for: 'sightline-key' }, 'Personal API key', input),
    el(doc, 'p', { id: 'sightline-key-help', class: 'sightline-status', text: 'A key starting with phx_, as printed by sightline serve or created with sightline.personalApiKeys.create. It is kept in this tab only.' }),
    error,
    submit,
  )
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    const key = input.value.trim()
    submit.disabled = true
    error.hidden = true
    createApi(key, base)
      .get('api/users/@me/')
      .then(() => accepted(key))
      .catch((e: unknown) => {
        error.textContent = e instanceof ApiError && e.status === 401 ? 'That key was not accepted: check it and try again.' : `Could not sign in: ${e instanceof Error ? e.message : String(e)}`
        error.hidden = false
        submit.disabled = false
        input.focus()
      })
  })
  main.append(form)
  input.focus()
}

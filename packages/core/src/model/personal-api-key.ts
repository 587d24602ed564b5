import { Schema } from 'effect'
import { UserId } from './ids.js'

/** The scopes a personal API key can carry; `*` grants all. */
export const API_SCOPES = [
  '*',
  'plugin:read', 'plugin:write',
  'insight:read', 'insight:write',
  'event_definition:read', 'event_definition:write',
  'project:read', 'project:write',
  'organization:read', 'organization:write',
  'action:read', 'action:write',
  'cohort:read', 'cohort:write',
  'query:read',
  'person:read', 'person:write',
  'user:read', 'user:write',
  'dashboard:read', 'dashboard:write',
] as const
export const ApiScope = Schema.Literals(API_SCOPES)
export type ApiScope = typeof ApiScope.Type

export const PersonalApiKey = Schema.Struct({
  id: Schema.String,
  userId: UserId,
  label: Schema.String,
  /** The first and last characters of the secret, for display (`phx_ab...yz`). */
  maskValue: Schema.String,
  scopes: Schema.Array(ApiScope),
  createdAt: Schema.String,
  lastUsedAt: Schema.NullOr(Schema.String),
})
export type PersonalApiKey = typeof PersonalApiKey.Type

export const CreatePersonalApiKeyInput = Schema.Struct({
  userId: UserId,
  label: Schema.String.pipe(Schema.check(Schema.isMinLength(1), Schema.isMaxLength(40))),
  /** Default `['*']`. */
  scopes: Schema.optional(Schema.Array(ApiScope)),
  /**
   * A secret chosen by the host (`phx_` and 20 to 100 url-safe characters), e.g.
   * to bootstrap a server with a known key. Default: 256 random bits.
   */
  secret: Schema.optional(Schema.String.pipe(Schema.check(Schema.isPattern(/^phx_[A-Za-z0-9_-]{20,100}$/, { message: 'expected phx_ and 20 to 100 url-safe characters' })))),
})
export type CreatePersonalApiKeyInput = typeof CreatePersonalApiKeyInput.Type

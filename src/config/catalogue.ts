/**
 * The catalogue of every environment variable Caretaker reads: name, default and meaning. It is
 * the source of `.env.example` (`npm run env:example`, checked in CI by `npm run env:check`) and of
 * the secret masking in start-up messages and `caretaker config check`. scripts/env-example.ts
 * proves it complete against src/config/config.ts: every variable loadConfig reads is listed here, and
 * setting a listed default changes nothing in the parsed configuration.
 */

export interface ConfigVariable {
  name: string;
  /** The value that behaves like leaving it unset; undefined when unset means "off" or "derived". */
  default: string | undefined;
  /** One line: what it does, with units. */
  meaning: string;
  /** Never printed in full (passwords, keys, URLs with credentials). */
  secret?: boolean;
  /** Read only when another variable is set (not read by loadConfig on an empty environment). */
  conditional?: boolean;
  /** Read by a library (the AWS SDK), not by loadConfig. */
  external?: boolean;
}

export interface ConfigGroup {
  title: string;
  variables: ConfigVariable[];
}

const v = (name: string, def: string | undefined, meaning: string, extra: Partial<ConfigVariable> = {}): ConfigVariable => ({
  name,
  default: def,
  meaning,
  ...extra,
});

/** Every variable, grouped as in the README; order is the order of .env.example. */
export const CONFIG_GROUPS: ConfigGroup[] = [
  {
    title: 'Server',
    variables: [
      v('PORT', '3000', 'TCP port to listen on (0 to 65535)'),
      v('HOST', '127.0.0.1', 'interface to bind: an IP address or host name (0.0.0.0 for every IPv4 interface)'),
      v('LOG_LEVEL', 'info', 'fatal, error, warn, info, debug, trace or silent; logs are JSON lines, human-readable when stdout is a terminal'),
      v('CARETAKER_PUBLIC_URL', undefined, 'base of links in e-mails (invitations, password resets); unset: http://HOST:PORT of this process'),
      v('CARETAKER_TRUST_PROXY', undefined, 'comma-separated proxy IPs or CIDRs whose X-Forwarded-For is believed (or loopback); unset: none'),
      v('CARETAKER_COOKIE_SECURE', 'true', 'Secure flag on the session cookie; false only for plain-http development'),
      v('CARETAKER_BODY_LIMIT_BYTES', '1048576', 'largest accepted request body in bytes (413 above)'),
      v('CARETAKER_UPLOAD_DOCUMENT_MAX_BYTES', '20971520', 'largest job document upload in bytes'),
      v('CARETAKER_UPLOAD_PHOTO_MAX_BYTES', '15728640', 'largest job photo upload in bytes'),
      v('CARETAKER_UPLOAD_BANNER_MAX_BYTES', '2097152', 'largest appearance banner upload in bytes'),
      v('CARETAKER_SHUTDOWN_TIMEOUT_S', '10', 'seconds requests in flight get to finish on SIGTERM'),
      v('CARETAKER_PLAYGROUND', 'false', 'playground mode: only SysOps and API accounts may log in'),
      v('CARETAKER_SYSOPS_SECOND_FACTOR', 'false', 'SysOps accounts must sign in with a second factor (TOTP or passkey); true in the container image'),
      v('CARETAKER_SECRETS_KEY', undefined, 'key that encrypts stored secrets such as TOTP secrets (32 bytes: openssl rand -base64 32); unset: secrets.key in CARETAKER_DATA_DIR, made on first start; instances sharing a database must share it', { secret: true }),
    ],
  },
  {
    title: 'Database',
    variables: [
      v('DATABASE_URL', undefined, 'postgres://user:password@host:5432/db; unset: the embedded PGlite database in CARETAKER_DATA_DIR', { secret: true }),
      v('DATABASE_POOL_MAX', '10', 'connections in the PostgreSQL pool (1 to 500)'),
      v('CARETAKER_DATABASE_POOLER', 'none', 'transaction: DATABASE_URL goes through a transaction-mode pooler (PgBouncer, RDS Proxy); no named statements or session state on it'),
      v('DATABASE_DIRECT_URL', undefined, 'postgres://... straight to PostgreSQL for LISTEN and backups (needed behind a pooler); unset: DATABASE_URL', { secret: true }),
      v('DATABASE_REPLICA_URL', undefined, 'postgres://... a streaming replica of DATABASE_URL for the reads that may lag (lists, dashboard, reports, search, exports); unset: every read on DATABASE_URL', { secret: true }),
      v('DATABASE_REPLICA_MAX_LAG_MS', '5000', 'milliseconds a replica may be behind the primary before reads skip it (50 to 3600000)'),
      v('CARETAKER_DATA_DIR', './data', 'folder of the embedded database, stored files and .eml mail; must be writable'),
    ],
  },
  {
    title: 'Redis',
    variables: [
      v('REDIS_URL', undefined, 'redis://host:6379 for shared rate limits and login throttling; unset: in-process counters (one instance only)', { secret: true }),
      v('CARETAKER_REDIS_PREFIX', 'caretaker:', 'prefix of every Redis key this instance writes'),
    ],
  },
  {
    title: 'First start and demo',
    variables: [
      v('CARETAKER_ADMIN_EMAIL', undefined, 'e-mail of the SysOps account created on first start; unset: sysops@caretaker.test'),
      v('CARETAKER_ADMIN_PASSWORD', undefined, 'its password (8 to 128 characters); unset: a generated one, printed once', { secret: true }),
      v('CARETAKER_DEMO', 'false', 'load the demo agencies, people and jobs on start when the database is empty'),
      v('CARETAKER_DEMO_PASSWORD', 'caretaker-demo', 'password of every demo account', { secret: true }),
      v('CARETAKER_DEMO_SEED', '20261121', 'seed of the demo data generator (same seed, same data)'),
    ],
  },
  {
    title: 'Rate limits and blacklist',
    variables: [
      v('CARETAKER_RATE_LIMIT_IP_MAX', '300', 'requests per IP address per route per window'),
      v('CARETAKER_RATE_LIMIT_ACCOUNT_MAX', '600', 'requests per account per route per window'),
      v('CARETAKER_AGENCY_HEAVY_MAX', '2', 'heavy work (import commits, exports, report downloads, subject-access reports, database copies) one agency runs at once, across instances; more waits in its queue with a position'),
      v('CARETAKER_HEAVY_DB_CONNECTIONS', '3', 'heavy work one process runs at once, all agencies together: the most pool connections it holds (keep it below DATABASE_POOL_MAX)'),
      v('CARETAKER_HEAVY_WAIT_S', '60', 'seconds a request for heavy work waits for its slot before a 503 with its queue position'),
      v('CARETAKER_RATE_LIMIT_AGENCY_MAX', '6000', 'requests per agency per window, all its accounts and routes together (fairness between agencies)'),
      v('CARETAKER_RATE_LIMIT_WINDOW_S', '60', 'rate-limit window in seconds'),
      v('CARETAKER_LOGIN_ACCOUNT_FAILURES', '10', 'failed logins allowed per account per login window'),
      v('CARETAKER_LOGIN_IP_FAILURES', '50', 'failed logins allowed per IP address per login window'),
      v('CARETAKER_LOGIN_WINDOW_S', '900', 'login failure window in seconds'),
      v('CARETAKER_PASSWORD_RESET_IP_MAX', '20', 'password-reset requests per IP address per window'),
      v('CARETAKER_PASSWORD_RESET_EMAIL_MAX', '5', 'password-reset requests per e-mail address per window'),
      v('CARETAKER_PASSWORD_RESET_WINDOW_S', '3600', 'password-reset window in seconds'),
      v('CARETAKER_SSO_ALLOW_HTTP', 'false', 'development only: accept http:// OpenID Connect issuers (single sign-on)'),
      v('CARETAKER_SSO_TIMEOUT_MS', '5000', 'deadline of each request to an OpenID Connect provider, milliseconds'),
      v('CARETAKER_BLACKLIST_REFRESH_S', '30', 'seconds an instance trusts its cached copy of the blacklist'),
      v('CARETAKER_BLACKLIST_AUTO_TRIPS', '5', 'login-throttle trips of one address that add an automatic blacklist entry'),
      v('CARETAKER_BLACKLIST_AUTO_WINDOW_S', '3600', 'window of those trips in seconds'),
      v('CARETAKER_BLACKLIST_AUTO_TTL_S', '86400', 'lifetime of an automatic entry in seconds'),
    ],
  },
  {
    title: 'Live updates',
    variables: [
      v('CARETAKER_LIVE_HEARTBEAT_S', '15', 'seconds between heartbeats on GET /api/events/stream (the session is checked again at each)'),
      v('CARETAKER_LIVE_REPLAY_S', '900', 'how far back a resumed stream (Last-Event-ID) is replayed, in seconds'),
      v('CARETAKER_LIVE_REPLAY_MAX', '500', 'events replayed at most; beyond, the client is told to refetch'),
      v('CARETAKER_LIVE_MAX_PER_USER', '8', 'open streams per account per instance'),
      v('CARETAKER_LIVE_MAX_CONNECTIONS', '2000', 'open streams per instance'),
    ],
  },
  {
    title: 'E-mail',
    variables: [
      v('SMTP_URL', undefined, 'smtp://user:pass@host:587 or smtps://...; unset: messages are written as .eml files under CARETAKER_DATA_DIR/mail', { secret: true }),
      v('CARETAKER_MAIL_FROM', 'Caretaker <no-reply@caretaker.test>', 'the From header of outgoing mail'),
    ],
  },
  {
    title: 'History partitions',
    variables: [
      v('CARETAKER_HISTORY_MONTHS_AHEAD', '3', 'monthly partitions of the history tables the worker keeps ready beyond the current month (1-24)'),
      v('CARETAKER_HISTORY_ARCHIVE', 'true', 'a history month past its retention is archived to the file store (gzip JSON lines) before its partition is dropped; false: dropped only'),
    ],
  },
  {
    title: 'File storage',
    variables: [
      v('STORAGE_DRIVER', 'local', 'local (CARETAKER_DATA_DIR/files) or s3'),
      v('S3_BUCKET', undefined, 'bucket name; required when STORAGE_DRIVER is s3'),
      v('S3_REGION', undefined, 'region; unset: AWS_REGION, else us-east-1'),
      v('AWS_REGION', undefined, 'region when S3_REGION is unset'),
      v('S3_ENDPOINT', undefined, 'endpoint of an S3-compatible service (MinIO, R2); unset: AWS'),
      v('S3_FORCE_PATH_STYLE', 'false', 'path-style bucket addressing (MinIO)'),
      v('S3_PRESIGN_TTL_S', '0', 'downloads answer 302 to a presigned URL valid this many seconds; 0: streamed through Caretaker'),
      v('CARETAKER_STORAGE_ORPHAN_AGE_H', '24', 'stored objects without a record older than this many hours are removed'),
      v('AWS_ACCESS_KEY_ID', undefined, 'S3 credentials (read by the AWS SDK; or a profile or an instance role)', { external: true }),
      v('AWS_SECRET_ACCESS_KEY', undefined, 'S3 credentials (read by the AWS SDK)', { external: true, secret: true }),
    ],
  },
  {
    title: 'Background queue',
    variables: [
      v('CARETAKER_QUEUE_RETRY_LIMIT', '5', 'retries of a failing handler before its job is dead-lettered'),
      v('CARETAKER_QUEUE_RETRY_DELAY_S', '5', 'first retry delay in seconds (doubles on each retry)'),
      v('CARETAKER_QUEUE_HEARTBEAT_S', '30', 'a running job silent this long (its worker died) is retried, seconds (10 or more)'),
      v('CARETAKER_QUEUE_SUPERVISE_S', '30', 'how often the queue looks for such jobs, seconds'),
      v('CARETAKER_RELAY_INTERVAL_MS', '1000', 'how often the outbox relay looks for committed events, milliseconds'),
      v('CARETAKER_QUEUE_BATCH_SIZE', '20', 'jobs a handler queue\'s worker fetches at once'),
      v('CARETAKER_QUEUE_CONCURRENCY', '2', 'workers per handler queue in each process (PGlite: 1)'),
      v('CARETAKER_QUEUE_IDLE_POLL_S', '5', 'how often an idle queue worker looks for jobs while LISTEN/NOTIFY wakes it for new ones, seconds'),
      v('CARETAKER_QUEUE_SEND_INTERVAL_MS', '1000', 'how often each worker sends due e-mails, push messages and webhooks, milliseconds'),
      v('CARETAKER_QUEUE_SEND_CONCURRENCY', '4', 'messages each worker sends at once per kind (e-mail/push, webhooks)'),
      v('CARETAKER_QUEUE_BACKLOG_WARN', '1000', 'readiness warns when a queue holds more runnable jobs than this'),
      v('CARETAKER_QUEUE_BACKLOG_WARN_AGE_S', '60', 'readiness warns when a queue\'s oldest runnable job waited longer, seconds'),
    ],
  },
  {
    title: 'Webhooks and workflow engine',
    variables: [
      v('CARETAKER_WEBHOOKS_ALLOW_LOOPBACK', 'false', 'development mode: http:// and loopback webhook targets allowed'),
      v('CARETAKER_WEBHOOKS_TIMEOUT_MS', '10000', 'deadline of one webhook delivery attempt, milliseconds'),
      v('CARETAKER_WORKFLOW_ENGINE_URL', undefined, 'base URL of the connected n8n instance (with CARETAKER_WORKFLOW_ENGINE_API_KEY)'),
      v('CARETAKER_WORKFLOW_ENGINE_API_KEY', undefined, 'its API key', { secret: true }),
      v('CARETAKER_WORKFLOW_ENGINE_TIMEOUT_MS', '5000', 'deadline of a call to it, milliseconds'),
    ],
  },
  {
    title: 'Push notifications (docs/push.md)',
    variables: [
      v('CARETAKER_FCM_SERVICE_ACCOUNT', undefined, 'Firebase service-account JSON, inline or a file path', { secret: true }),
      v('CARETAKER_FCM_URL', 'https://fcm.googleapis.com', 'FCM API base URL', { conditional: true }),
      v('CARETAKER_APNS_KEY_ID', undefined, 'APNs key id (with TEAM_ID, PRIVATE_KEY and TOPIC)'),
      v('CARETAKER_APNS_TEAM_ID', undefined, 'APNs team id'),
      v('CARETAKER_APNS_PRIVATE_KEY', undefined, 'APNs .p8 key (PEM), inline or a file path', { secret: true }),
      v('CARETAKER_APNS_TOPIC', undefined, "the app's bundle id"),
      v('CARETAKER_APNS_PRODUCTION', 'false', 'production APNs host instead of the sandbox', { conditional: true }),
      v('CARETAKER_APNS_URL', undefined, 'APNs base URL; unset: from CARETAKER_APNS_PRODUCTION', { conditional: true }),
      v('CARETAKER_VAPID_PUBLIC_KEY', undefined, 'Web Push public key (caretaker push vapid-keys)'),
      v('CARETAKER_VAPID_PRIVATE_KEY', undefined, 'Web Push private key', { secret: true }),
      v('CARETAKER_VAPID_SUBJECT', undefined, 'Web Push contact: mailto: address or https: URL'),
      v('CARETAKER_PUSH_TIMEOUT_MS', '10000', 'deadline of a push provider call, milliseconds'),
      v('CARETAKER_PUSH_ALLOW_PRIVATE_ENDPOINTS', 'false', 'allow Web Push endpoints on private addresses (tests only)'),
      v('CARETAKER_PUSH_CA_FILE', undefined, 'extra PEM CA certificates for push calls (tests only)'),
    ],
  },
  {
    title: 'Conversations: reply by e-mail and SMS (docs/conversations.md)',
    variables: [
      v('CARETAKER_INBOUND_EMAIL_DOMAIN', undefined, 'domain of the signed reply addresses (reply+...@domain); unset: messages carry no reply address'),
      v('CARETAKER_INBOUND_SMTP_PORT', undefined, 'port of the SMTP listener receiving replies, started with the server; unset: none'),
      v('CARETAKER_INBOUND_SMTP_HOST', undefined, 'interface the SMTP listener binds; unset: HOST'),
      v('CARETAKER_INBOUND_MAX_BYTES', '26214400', 'largest accepted reply e-mail, bytes'),
      v('CARETAKER_MAILGUN_SIGNING_KEY', undefined, "Mailgun's HTTP webhook signing key, for POST /api/inbound/mailgun", { secret: true }),
      v('TWILIO_ACCOUNT_SID', undefined, 'Twilio account SID (with TWILIO_AUTH_TOKEN and TWILIO_FROM): SMS on'),
      v('TWILIO_AUTH_TOKEN', undefined, 'Twilio auth token (API calls and the X-Twilio-Signature check)', { secret: true }),
      v('TWILIO_FROM', undefined, 'sender: an E.164 number or a Messaging Service SID'),
      v('TWILIO_API_URL', 'https://api.twilio.com', 'Twilio API base URL', { conditional: true }),
      v('CARETAKER_SMS_QUIET_HOURS', '21:00-08:00', 'London hours in which non-urgent SMS wait until the end'),
      v('CARETAKER_SMS_TIMEOUT_MS', '10000', 'deadline of an SMS provider call, milliseconds'),
    ],
  },
  {
    title: 'Weather (docs/insight.md)',
    variables: [
      v('CARETAKER_WEATHER_FORECAST_URL', 'https://api.open-meteo.com', 'Open-Meteo forecast API base URL'),
      v('CARETAKER_WEATHER_GEOCODE_URL', 'https://api.postcodes.io', 'postcodes.io geocoding API base URL'),
      v('CARETAKER_WEATHER_TIMEOUT_MS', '3000', 'deadline of a weather call, milliseconds'),
      v('CARETAKER_WEATHER_FORECAST_TTL_S', '3600', 'seconds a forecast is cached'),
      v('CARETAKER_WEATHER_GEOCODE_TTL_S', '2592000', 'seconds a geocoded postcode is cached'),
      v('CARETAKER_WEATHER_HEAVY_RAIN_MM', '10', 'daily precipitation (mm) counted as heavy rain'),
      v('CARETAKER_WEATHER_STRONG_WIND_KMH', '60', 'daily maximum gust (km/h) counted as strong wind'),
    ],
  },
  {
    // Read by the OpenTelemetry SDK (src/main/telemetry.ts), not by loadConfig; the standard names.
    title: 'Tracing (docs/operations.md "Tracing"; OpenTelemetry, read by its SDK)',
    variables: [
      v('OTEL_EXPORTER_OTLP_ENDPOINT', undefined, 'OTLP collector base URL, e.g. http://collector:4318 (traces go to /v1/traces); unset: tracing off and the SDK never loaded', { external: true }),
      v('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', undefined, 'full URL for traces only (instead of the base URL above); setting it also turns tracing on', { external: true }),
      v('OTEL_EXPORTER_OTLP_PROTOCOL', 'http/protobuf', 'http/protobuf, http/json or grpc', { external: true }),
      v('OTEL_EXPORTER_OTLP_HEADERS', undefined, 'headers of every export, key=value,key2=value2 (a vendor API key)', { external: true, secret: true }),
      v('OTEL_EXPORTER_OTLP_TIMEOUT', '10000', 'deadline of one export, milliseconds', { external: true }),
      v('OTEL_EXPORTER_OTLP_COMPRESSION', undefined, 'gzip to compress exports; unset: none', { external: true }),
      v('OTEL_TRACES_EXPORTER', 'otlp', 'otlp, console (spans printed on stdout, for a look without a collector; turns tracing on) or none (off)', { external: true }),
      v('OTEL_SERVICE_NAME', 'caretaker', 'service.name of every span', { external: true }),
      v('OTEL_RESOURCE_ATTRIBUTES', undefined, 'more resource attributes, key=value,... (deployment.environment.name=production)', { external: true }),
      v('OTEL_TRACES_SAMPLER', 'parentbased_always_on', 'always_on, always_off, traceidratio, parentbased_always_on, parentbased_always_off, parentbased_traceidratio', { external: true }),
      v('OTEL_TRACES_SAMPLER_ARG', undefined, 'the ratio of the traceidratio samplers, 0 to 1 (e.g. 0.1 keeps one trace in ten)', { external: true }),
      v('OTEL_PROPAGATORS', 'tracecontext,baggage', 'how trace context travels in HTTP headers (W3C traceparent)', { external: true }),
      v('OTEL_BSP_SCHEDULE_DELAY', '5000', 'milliseconds between two exports of finished spans', { external: true }),
      v('OTEL_BSP_MAX_QUEUE_SIZE', '2048', 'spans held for export at most; more are dropped', { external: true }),
      v('OTEL_BSP_MAX_EXPORT_BATCH_SIZE', '512', 'spans per export at most', { external: true }),
      v('OTEL_SDK_DISABLED', 'false', 'true turns tracing off whatever else is set', { external: true }),
      v('OTEL_LOG_LEVEL', undefined, "the SDK's own diagnostics on the console: error, warn, info, debug; unset: none", { external: true }),
    ],
  },
];

/** Every variable, flat. */
export const CONFIG_VARIABLES: ConfigVariable[] = CONFIG_GROUPS.flatMap((g) => g.variables);

const SECRET = new Set(CONFIG_VARIABLES.filter((x) => x.secret).map((x) => x.name));

/**
 * A value safe to print: secrets masked. A URL keeps its scheme, host, port and path and loses
 * its password (postgres://app:****@db:5432/caretaker); any other secret becomes '****'.
 * @param name the variable
 * @param value its raw value
 */
export function displayValue(name: string, value: string | undefined): string {
  if (value === undefined) return '(unset)';
  if (!SECRET.has(name)) return value;
  try {
    const u = new URL(value);
    if (u.host) {
      if (u.password) u.password = '****';
      return u.toString();
    }
  } catch {
    // not a URL: mask it all
  }
  return '****';
}

/**
 * Configuration from environment variables (docs/api.md "Configuration"), parsed once at start
 * into a frozen, typed object. A bad value stops the process with a message naming the variable.
 */
import { parseSecretsKey } from '../lib/secret-box.ts';
import { ConfigError } from './error.ts';
import path from 'node:path';
import { loadPushConfig, type PushConfig } from './push.ts';
import { loadWebhooksConfig, type WebhooksConfig } from './webhooks.ts';
import { loadInboundMailConfig, loadSmsConfig, type InboundMailConfig, type SmsConfig } from './conversations.ts';

export interface Config {
  /** TCP port to listen on (default 3000). */
  port: number;
  /** Interface to bind (default 127.0.0.1). */
  host: string;
  /** PostgreSQL connection string; undefined means the embedded PGlite database. */
  databaseUrl: string | undefined;
  /** Maximum connections in the PostgreSQL pool. */
  databasePoolMax: number;
  /**
   * CARETAKER_DATABASE_POOLER: 'transaction' when DATABASE_URL reaches PostgreSQL through a
   * transaction-mode pooler (PgBouncer, RDS Proxy ...): no named statement and no session state on
   * pooled connections (src/db/pooler.ts, docs/operations.md "Behind a connection pooler").
   */
  databasePooler: 'none' | 'transaction';
  /**
   * DATABASE_DIRECT_URL: a connection string straight to PostgreSQL, for what needs a session of its
   * own (LISTEN, backups); DATABASE_URL when unset.
   */
  databaseDirectUrl: string | undefined;
  /**
   * DATABASE_REPLICA_URL: a streaming replica of DATABASE_URL for the reads that may lag (lists,
   * dashboard, reports, search, exports: src/db/replica.ts, docs/operations.md "Read replicas");
   * undefined: every read on the primary.
   */
  databaseReplicaUrl: string | undefined;
  /**
   * DATABASE_REPLICA_MAX_LAG_MS: a replica further behind the primary than this (milliseconds) is
   * skipped until it catches up (default 5000).
   */
  databaseReplicaMaxLagMs: number;
  /** Folder for the embedded database and stored files (default ./data). */
  dataDir: string;
  /** Redis connection string; undefined means in-process counters. */
  redisUrl: string | undefined;
  /** Prefix of every Redis key this instance writes. */
  redisPrefix: string;
  rateLimit: {
    /** Requests allowed per IP address per route per window. */
    ipMax: number;
    /** Requests allowed per account per route per window. */
    accountMax: number;
    /**
     * Requests allowed per agency per window, every route and account of the agency together
     * (docs/operations.md "Fairness between agencies"); SysOps accounts count in no agency.
     */
    agencyMax: number;
    /** Window length in seconds. */
    windowS: number;
    /** Failed logins allowed per account per login window (ASVS: at most 100 an hour). */
    loginAccountFailures: number;
    /** Failed logins allowed per IP per login window. */
    loginIpFailures: number;
    /** Login failure window in seconds. */
    loginWindowS: number;
  };
  /**
   * CARETAKER_AGENCY_HEAVY_MAX: heavy work (import commits, agency exports, report downloads,
   * subject-access reports, database copies) one agency may run at once, counted across instances;
   * more waits in its queue with a position (docs/operations.md "Fairness between agencies").
   */
  agencyHeavyMax: number;
  /**
   * CARETAKER_HEAVY_DB_CONNECTIONS: heavy work one process runs at once, whatever its agency, so it
   * holds at most this many connections of the pool (each holds one at a time).
   */
  heavyDbConnections: number;
  /** CARETAKER_HEAVY_WAIT_S: seconds a request for heavy work waits for a slot before 503 with its queue position. */
  heavyWaitS: number;
  /** Proxy addresses (IPs or CIDRs) whose X-Forwarded-For is believed; empty means none. */
  trustProxy: string[];
  /** Live updates, `GET /api/events/stream` (docs/live-updates.md). */
  live: {
    /** Seconds between heartbeats (an SSE comment; the session is checked again at each). */
    heartbeatS: number;
    /** How far back a resumed stream (Last-Event-ID) is replayed from the outbox, in seconds. */
    replayS: number;
    /** At most this many events are replayed; beyond, the client is told to refetch everything. */
    replayMax: number;
    /** Open streams per account per instance. */
    maxPerUser: number;
    /** Open streams per instance. */
    maxConnections: number;
  };
  /** The security blacklist (docs/security.md "Blacklist"). */
  blacklist: {
    /** Seconds an instance trusts its cached copy before reloading it (changes elsewhere arrive at once through Redis). */
    refreshS: number;
    /** Login-throttle trips of one address within autoWindowS that add an automatic entry. */
    autoTrips: number;
    autoWindowS: number;
    /** Lifetime of an automatic entry in seconds. */
    autoTtlS: number;
  };
  /** Only SysOps and API accounts may log in (spec 4.1 rule 3). */
  playground: boolean;
  /**
   * CARETAKER_SYSOPS_SECOND_FACTOR: SysOps accounts must sign in with a second factor, whatever
   * their agency's policy (docs/security.md "Two-factor sign-in"); on in the container image.
   */
  sysopsSecondFactor: boolean;
  /**
   * CARETAKER_SECRETS_KEY: the 32-byte key that encrypts stored secrets (src/lib/secret-box.ts);
   * undefined: the key file secrets.key in the data folder, made on the first start.
   */
  secretsKey: Buffer | undefined;
  /** pino log level. */
  logLevel: string;
  /** Whether the session cookie carries the Secure flag (default true). */
  cookieSecure: boolean;
  /** Largest accepted request body in bytes (413 above it). */
  bodyLimitBytes: number;
  /** Upload limits in bytes (413 above them). */
  uploads: { documentMaxBytes: number; photoMaxBytes: number; bannerMaxBytes: number };
  /** Seconds to wait for in-flight requests on SIGTERM before exiting. */
  shutdownTimeoutS: number;
  admin: { email: string | undefined; password: string | undefined };
  demo: { enabled: boolean; password: string; seed: number };
  /** Product version reported by the status endpoint. */
  version: string;
  /**
   * The connected n8n instance read by GET /api/workflow-engine/workflows (spec 4.15); url and
   * apiKey are both set or both undefined (not configured: 503).
   */
  workflowEngine: { url: string | undefined; apiKey: string | undefined; timeoutMs: number };
  /** Outgoing e-mail (docs/email.md): SMTP when smtpUrl is set, else .eml files under <dataDir>/mail. */
  mail: {
    /** SMTP_URL, e.g. smtp://user:pass@host:587 (never logged). */
    smtpUrl: string | undefined;
    /** CARETAKER_MAIL_FROM: the From header. */
    from: string;
    /** CARETAKER_PUBLIC_URL without a trailing slash: base of links in e-mails; default http://HOST:PORT. */
    publicUrl: string;
  };
  /**
   * Single sign-on by OpenID Connect (docs/security.md "Single sign-on"): allowHttp accepts
   * `http://` issuers (development and tests only; providers must use https), timeoutMs is the
   * deadline of each request to a provider (discovery, token exchange).
   */
  sso: { allowHttp: boolean; timeoutMs: number };
  /** Password-reset requests allowed per IP and per e-mail address per window (seconds). */
  passwordReset: { ipMax: number; emailMax: number; windowS: number };
  /** Push providers (FCM, APNs, Web Push); each undefined when not configured (docs/push.md). */
  push: PushConfig;
  /** Outbound webhooks: development mode (http and loopback targets) and the attempt deadline (docs/webhooks.md). */
  webhooks: WebhooksConfig;
  /** Replies by e-mail to conversation messages (docs/conversations.md "Reply by e-mail"). */
  inboundMail: InboundMailConfig;
  /** SMS provider and quiet hours (docs/conversations.md "SMS"). */
  sms: SmsConfig;
  /**
   * Weather forecast of job visits (docs/insight.md "Weather"): Open-Meteo's forecast API and
   * postcodes.io's geocoding (no keys), cached in memory; a visit day at or above a threshold is
   * a weather risk for outdoor trades.
   */
  weather: {
    forecastUrl: string;
    geocodeUrl: string;
    timeoutMs: number;
    forecastTtlS: number;
    geocodeTtlS: number;
    /** Daily precipitation sum (mm) counted as heavy rain. */
    heavyRainMm: number;
    /** Daily maximum wind gust (km/h) counted as strong wind. */
    strongWindKmh: number;
  };
  /** Background work (docs/events.md): the pg-boss queue, the outbox relay and periodic tasks. */
  queue: {
    /** Tries of a failing handler after the first before its job is dead-lettered. */
    retryLimit: number;
    /** First retry delay in seconds; doubles on each retry (exponential backoff). */
    retryDelayS: number;
    /** A running job without a heartbeat for this long (its worker died) is retried (>= 10). */
    heartbeatS: number;
    /** How often the queue's supervisor looks for such jobs and expired ones, in seconds. */
    superviseS: number;
    /** How often the relay looks for committed outbox rows, in milliseconds. */
    relayIntervalMs: number;
    /** Jobs a handler queue's worker fetches at once (docs/operations.md "Queue sizing"). */
    batchSize: number;
    /** Workers per handler queue in each process, each fetching its own batch (PGlite: always 1). */
    concurrency: number;
    /**
     * How often an idle queue worker looks for jobs while PostgreSQL's LISTEN/NOTIFY wakes it for
     * new ones, in seconds; a retry coming due waits at most this long (PGlite polls every second).
     */
    idlePollS: number;
    /** How often each worker sends due e-mails, push messages and webhooks, in milliseconds. */
    sendIntervalMs: number;
    /** Messages each worker sends at once per kind (e-mail/push, webhooks). */
    sendConcurrency: number;
    /** Readiness warns when a queue holds more runnable jobs than this. */
    backlogWarnJobs: number;
    /** Readiness warns when a queue's oldest runnable job has waited longer than this, in seconds. */
    backlogWarnAgeS: number;
  };
  /** Where uploaded files live (docs/operations.md "File storage"). */
  storage: {
    /** STORAGE_DRIVER: 'local' (<dataDir>/files, default) or 's3'. */
    driver: 'local' | 's3';
    /** S3 settings; bucket is set whenever driver is 's3'. */
    s3: {
      bucket: string | undefined;
      region: string;
      endpoint: string | undefined;
      forcePathStyle: boolean;
      /** S3_PRESIGN_TTL_S: downloads answer 302 to a presigned URL valid this long; 0 = off. */
      presignTtlS: number;
    };
    /** Stored objects with no record older than this many hours are removed (orphan cleanup). */
    orphanMaxAgeH: number;
  };
  /** Monthly partitions of the history tables (docs/operations.md "History partitions and retention"). */
  history: {
    /** CARETAKER_HISTORY_MONTHS_AHEAD: monthly partitions kept ready beyond the current month. */
    monthsAhead: number;
    /** CARETAKER_HISTORY_ARCHIVE: a partition past its retention is archived to the file store before it is dropped. */
    archive: boolean;
  };
}

export { ConfigError } from './error.ts';

type Env = Record<string, string | undefined>;

function str(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = str(env, name);
  if (raw === undefined) return fallback;
  if (!/^-?\d+$/.test(raw)) throw new ConfigError(name, `must be a whole number (got '${raw}')`);
  const value = Number(raw);
  if (value < min || value > max) {
    throw new ConfigError(name, `must be between ${min} and ${max} (got ${value})`);
  }
  return value;
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = str(env, name)?.toLowerCase();
  if (raw === undefined) return fallback;
  if (['true', '1', 'yes', 'on'].includes(raw)) return true;
  if (['false', '0', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(name, `must be true or false (got '${raw}')`);
}

/** DATABASE_REPLICA_URL: a postgres:// URL, only beside DATABASE_URL (the embedded database has no replica). */
function replicaUrl(env: Env): string | undefined {
  const replica = url(env, 'DATABASE_REPLICA_URL', ['postgres:', 'postgresql:']);
  if (replica && !url(env, 'DATABASE_URL', ['postgres:', 'postgresql:'])) throw new ConfigError('DATABASE_REPLICA_URL', 'needs DATABASE_URL (the primary it replicates); the embedded database has no replica');
  return replica;
}

/** CARETAKER_DATABASE_POOLER: none (default) or transaction. */
function poolerMode(env: Env): Config['databasePooler'] {
  const value = str(env, 'CARETAKER_DATABASE_POOLER') ?? 'none';
  if (value !== 'none' && value !== 'transaction') throw new ConfigError('CARETAKER_DATABASE_POOLER', `must be none or transaction (got '${value}')`);
  return value;
}

function url(env: Env, name: string, protocols: string[]): string | undefined {
  const raw = str(env, name);
  if (raw === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, 'must be a URL');
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(name, `must use ${protocols.join(' or ')} (got '${parsed.protocol}')`);
  }
  return raw;
}

/**
 * The base of e-mail links when CARETAKER_PUBLIC_URL is unset: this process's own address, so an
 * invitation sent by an instance on port 4000 links to port 4000. A wildcard HOST (0.0.0.0, ::)
 * becomes localhost; an IPv6 address gets its brackets.
 */
function defaultPublicUrl(host: string, port: number): string {
  const name = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${name}:${port}`;
}

/** CARETAKER_SECRETS_KEY as 32 bytes, or undefined when unset. */
function secretsKeyOf(env: Env): Buffer | undefined {
  const text = str(env, 'CARETAKER_SECRETS_KEY');
  if (text === undefined) return undefined;
  const key = parseSecretsKey(text);
  if (!key) throw new ConfigError('CARETAKER_SECRETS_KEY', 'must be 32 bytes as 64 hex characters or base64 (openssl rand -base64 32)');
  return key;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/**
 * Parses and validates the environment.
 * @param env the variables (default process.env)
 * @returns a frozen Config
 * @throws ConfigError naming the first bad variable
 */
export function loadConfig(env: Env = process.env): Readonly<Config> {
  const logLevel = str(env, 'LOG_LEVEL') ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')} (got '${logLevel}')`);
  }
  const adminEmail = str(env, 'CARETAKER_ADMIN_EMAIL');
  if (adminEmail !== undefined && !/^[^@\s]+@[^@\s]+$/.test(adminEmail)) {
    throw new ConfigError('CARETAKER_ADMIN_EMAIL', 'must be an e-mail address');
  }
  const adminPassword = str(env, 'CARETAKER_ADMIN_PASSWORD');
  if (adminPassword !== undefined && (adminPassword.length < 8 || adminPassword.length > 128)) {
    throw new ConfigError('CARETAKER_ADMIN_PASSWORD', 'must be 8 to 128 characters');
  }
  const demoPassword = str(env, 'CARETAKER_DEMO_PASSWORD') ?? 'caretaker-demo';
  if (demoPassword.length < 8) throw new ConfigError('CARETAKER_DEMO_PASSWORD', 'must be at least 8 characters');
  const mailFrom = str(env, 'CARETAKER_MAIL_FROM') ?? 'Caretaker <no-reply@caretaker.test>';
  if (!/^([^<>@\r\n]*<[^<>@\s]+@[^<>@\s]+>|[^<>@\s]+@[^<>@\s]+)$/.test(mailFrom)) {
    throw new ConfigError('CARETAKER_MAIL_FROM', "must be an address like 'Name <no-reply@example.com>' or 'no-reply@example.com'");
  }
  const trustProxyRaw = str(env, 'CARETAKER_TRUST_PROXY');
  const trustProxy =
    trustProxyRaw === undefined || trustProxyRaw === 'false'
      ? []
      : trustProxyRaw.split(',').map((s) => s.trim()).filter(Boolean);
  for (const entry of trustProxy) {
    if (!/^[0-9a-fA-F.:]+(\/\d{1,3})?$/.test(entry) && entry !== 'loopback') {
      throw new ConfigError('CARETAKER_TRUST_PROXY', `must list IP addresses or CIDR ranges (got '${entry}')`);
    }
  }

  const engineUrl = url(env, 'CARETAKER_WORKFLOW_ENGINE_URL', ['http:', 'https:']);
  const engineKey = str(env, 'CARETAKER_WORKFLOW_ENGINE_API_KEY');
  if (engineUrl !== undefined && engineKey === undefined) {
    throw new ConfigError('CARETAKER_WORKFLOW_ENGINE_API_KEY', 'must be set when CARETAKER_WORKFLOW_ENGINE_URL is set');
  }
  if (engineKey !== undefined && engineUrl === undefined) {
    throw new ConfigError('CARETAKER_WORKFLOW_ENGINE_URL', 'must be set when CARETAKER_WORKFLOW_ENGINE_API_KEY is set');
  }

  const storageDriver = str(env, 'STORAGE_DRIVER') ?? 'local';
  if (storageDriver !== 'local' && storageDriver !== 's3') {
    throw new ConfigError('STORAGE_DRIVER', `must be local or s3 (got '${storageDriver}')`);
  }
  const s3Bucket = str(env, 'S3_BUCKET');
  if (storageDriver === 's3' && !s3Bucket) throw new ConfigError('S3_BUCKET', 'must be set when STORAGE_DRIVER is s3');
  if (s3Bucket && !/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(s3Bucket)) {
    throw new ConfigError('S3_BUCKET', `must be a bucket name (3 to 63 lower-case letters, digits, dots, hyphens; got '${s3Bucket}')`);
  }

  const port = int(env, 'PORT', 3000, 0, 65_535);
  const host = str(env, 'HOST') ?? '127.0.0.1';
  const config: Config = {
    port,
    host,
    databaseUrl: url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    databasePoolMax: int(env, 'DATABASE_POOL_MAX', 10, 1, 500),
    databasePooler: poolerMode(env),
    databaseDirectUrl: url(env, 'DATABASE_DIRECT_URL', ['postgres:', 'postgresql:']) ?? url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    databaseReplicaUrl: replicaUrl(env),
    databaseReplicaMaxLagMs: int(env, 'DATABASE_REPLICA_MAX_LAG_MS', 5_000, 50, 3_600_000),
    dataDir: path.resolve(str(env, 'CARETAKER_DATA_DIR') ?? './data'),
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    redisPrefix: str(env, 'CARETAKER_REDIS_PREFIX') ?? 'caretaker:',
    rateLimit: {
      ipMax: int(env, 'CARETAKER_RATE_LIMIT_IP_MAX', 300, 1, 1_000_000),
      accountMax: int(env, 'CARETAKER_RATE_LIMIT_ACCOUNT_MAX', 600, 1, 1_000_000),
      agencyMax: int(env, 'CARETAKER_RATE_LIMIT_AGENCY_MAX', 6_000, 1, 10_000_000),
      windowS: int(env, 'CARETAKER_RATE_LIMIT_WINDOW_S', 60, 1, 86_400),
      loginAccountFailures: int(env, 'CARETAKER_LOGIN_ACCOUNT_FAILURES', 10, 1, 100),
      loginIpFailures: int(env, 'CARETAKER_LOGIN_IP_FAILURES', 50, 1, 10_000),
      loginWindowS: int(env, 'CARETAKER_LOGIN_WINDOW_S', 900, 1, 3600),
    },
    agencyHeavyMax: int(env, 'CARETAKER_AGENCY_HEAVY_MAX', 2, 1, 1000),
    heavyDbConnections: int(env, 'CARETAKER_HEAVY_DB_CONNECTIONS', 3, 1, 500),
    heavyWaitS: int(env, 'CARETAKER_HEAVY_WAIT_S', 60, 1, 600),
    trustProxy,
    live: {
      heartbeatS: int(env, 'CARETAKER_LIVE_HEARTBEAT_S', 15, 1, 300),
      replayS: int(env, 'CARETAKER_LIVE_REPLAY_S', 900, 0, 86_400),
      replayMax: int(env, 'CARETAKER_LIVE_REPLAY_MAX', 500, 1, 10_000),
      maxPerUser: int(env, 'CARETAKER_LIVE_MAX_PER_USER', 8, 1, 100),
      maxConnections: int(env, 'CARETAKER_LIVE_MAX_CONNECTIONS', 2_000, 1, 100_000),
    },
    blacklist: {
      refreshS: int(env, 'CARETAKER_BLACKLIST_REFRESH_S', 30, 1, 3600),
      autoTrips: int(env, 'CARETAKER_BLACKLIST_AUTO_TRIPS', 5, 1, 1000),
      autoWindowS: int(env, 'CARETAKER_BLACKLIST_AUTO_WINDOW_S', 3600, 60, 86_400),
      autoTtlS: int(env, 'CARETAKER_BLACKLIST_AUTO_TTL_S', 86_400, 60, 31_536_000),
    },
    playground: bool(env, 'CARETAKER_PLAYGROUND', false),
    sysopsSecondFactor: bool(env, 'CARETAKER_SYSOPS_SECOND_FACTOR', false),
    secretsKey: secretsKeyOf(env),
    logLevel,
    cookieSecure: bool(env, 'CARETAKER_COOKIE_SECURE', true),
    bodyLimitBytes: int(env, 'CARETAKER_BODY_LIMIT_BYTES', 1_048_576, 1024, 100 * 1_048_576),
    uploads: {
      documentMaxBytes: int(env, 'CARETAKER_UPLOAD_DOCUMENT_MAX_BYTES', 20 * 1_048_576, 1024, 500 * 1_048_576),
      photoMaxBytes: int(env, 'CARETAKER_UPLOAD_PHOTO_MAX_BYTES', 15 * 1_048_576, 1024, 500 * 1_048_576),
      bannerMaxBytes: int(env, 'CARETAKER_UPLOAD_BANNER_MAX_BYTES', 2 * 1_048_576, 1024, 50 * 1_048_576),
    },
    shutdownTimeoutS: int(env, 'CARETAKER_SHUTDOWN_TIMEOUT_S', 10, 1, 600),
    admin: { email: adminEmail?.toLowerCase(), password: adminPassword },
    demo: {
      enabled: bool(env, 'CARETAKER_DEMO', false),
      password: demoPassword,
      seed: int(env, 'CARETAKER_DEMO_SEED', 20_261_121, 0, 2_147_483_647),
    },
    version: '2.0.0',
    workflowEngine: {
      url: engineUrl?.replace(/\/+$/, ''),
      apiKey: engineKey,
      timeoutMs: int(env, 'CARETAKER_WORKFLOW_ENGINE_TIMEOUT_MS', 5000, 100, 120_000),
    },
    mail: {
      smtpUrl: url(env, 'SMTP_URL', ['smtp:', 'smtps:']),
      from: mailFrom,
      publicUrl: (url(env, 'CARETAKER_PUBLIC_URL', ['http:', 'https:']) ?? defaultPublicUrl(host, port)).replace(/\/+$/, ''),
    },
    sso: {
      allowHttp: bool(env, 'CARETAKER_SSO_ALLOW_HTTP', false),
      timeoutMs: int(env, 'CARETAKER_SSO_TIMEOUT_MS', 5000, 100, 60_000),
    },
    passwordReset: {
      ipMax: int(env, 'CARETAKER_PASSWORD_RESET_IP_MAX', 20, 1, 100_000),
      emailMax: int(env, 'CARETAKER_PASSWORD_RESET_EMAIL_MAX', 5, 1, 1_000),
      windowS: int(env, 'CARETAKER_PASSWORD_RESET_WINDOW_S', 3600, 60, 86_400),
    },
    push: loadPushConfig(env),
    webhooks: loadWebhooksConfig(env),
    inboundMail: loadInboundMailConfig(env, host),
    sms: loadSmsConfig(env),
    weather: {
      forecastUrl: (url(env, 'CARETAKER_WEATHER_FORECAST_URL', ['http:', 'https:']) ?? 'https://api.open-meteo.com').replace(/\/+$/, ''),
      geocodeUrl: (url(env, 'CARETAKER_WEATHER_GEOCODE_URL', ['http:', 'https:']) ?? 'https://api.postcodes.io').replace(/\/+$/, ''),
      timeoutMs: int(env, 'CARETAKER_WEATHER_TIMEOUT_MS', 3000, 100, 60_000),
      forecastTtlS: int(env, 'CARETAKER_WEATHER_FORECAST_TTL_S', 3600, 1, 86_400),
      geocodeTtlS: int(env, 'CARETAKER_WEATHER_GEOCODE_TTL_S', 30 * 86_400, 1, 365 * 86_400),
      heavyRainMm: int(env, 'CARETAKER_WEATHER_HEAVY_RAIN_MM', 10, 1, 1000),
      strongWindKmh: int(env, 'CARETAKER_WEATHER_STRONG_WIND_KMH', 60, 1, 500),
    },
    queue: {
      retryLimit: int(env, 'CARETAKER_QUEUE_RETRY_LIMIT', 5, 0, 100),
      retryDelayS: int(env, 'CARETAKER_QUEUE_RETRY_DELAY_S', 5, 1, 3600),
      heartbeatS: int(env, 'CARETAKER_QUEUE_HEARTBEAT_S', 30, 10, 3600),
      superviseS: int(env, 'CARETAKER_QUEUE_SUPERVISE_S', 30, 1, 3600),
      relayIntervalMs: int(env, 'CARETAKER_RELAY_INTERVAL_MS', 1000, 50, 60_000),
      batchSize: int(env, 'CARETAKER_QUEUE_BATCH_SIZE', 20, 1, 500),
      concurrency: int(env, 'CARETAKER_QUEUE_CONCURRENCY', 2, 1, 32),
      idlePollS: int(env, 'CARETAKER_QUEUE_IDLE_POLL_S', 5, 1, 60),
      sendIntervalMs: int(env, 'CARETAKER_QUEUE_SEND_INTERVAL_MS', 1000, 100, 60_000),
      sendConcurrency: int(env, 'CARETAKER_QUEUE_SEND_CONCURRENCY', 4, 1, 64),
      backlogWarnJobs: int(env, 'CARETAKER_QUEUE_BACKLOG_WARN', 1000, 1, 10_000_000),
      backlogWarnAgeS: int(env, 'CARETAKER_QUEUE_BACKLOG_WARN_AGE_S', 60, 1, 86_400),
    },
    storage: {
      driver: storageDriver,
      s3: {
        bucket: s3Bucket,
        region: str(env, 'S3_REGION') ?? str(env, 'AWS_REGION') ?? 'us-east-1',
        endpoint: url(env, 'S3_ENDPOINT', ['http:', 'https:'])?.replace(/\/+$/, ''),
        forcePathStyle: bool(env, 'S3_FORCE_PATH_STYLE', false),
        presignTtlS: int(env, 'S3_PRESIGN_TTL_S', 0, 0, 604_800),
      },
      orphanMaxAgeH: int(env, 'CARETAKER_STORAGE_ORPHAN_AGE_H', 24, 1, 8_760),
    },
    history: {
      monthsAhead: int(env, 'CARETAKER_HISTORY_MONTHS_AHEAD', 3, 1, 24),
      archive: bool(env, 'CARETAKER_HISTORY_ARCHIVE', true),
    },
  };
  return Object.freeze(config);
}

"""Crawford's one settings module, driven by environment variables with working defaults.

Locally (`make run`, DEBUG=1): SQLite in the project folder, tasks run eagerly in-process, a
random secret key kept outside the repository. Production: SECRET_KEY (required: without it and
without DEBUG=1 Crawford refuses to start), DATABASE_URL=postgres://...,
CELERY_BROKER_URL=redis://..., ALLOWED_HOSTS, and HTTPS behind a proxy (SECURE_* below).
"""

import os
import secrets
import tomllib
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP
from django.utils.translation import gettext_lazy

BASE_DIR = Path(__file__).resolve().parent.parent
# The release, from pyproject.toml: shown in every page's footer and by /health/ (CHANGELOG.md).
CRAWFORD_VERSION = tomllib.loads((BASE_DIR / "pyproject.toml").read_text())["project"]["version"]


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def local_secret_key(path: Path) -> str:
    """The key of a local (DEBUG) run: made at random on first use and kept in `path` (mode 600)."""
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        key = secrets.token_urlsafe(50)
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w") as file:
            file.write(key)
        return key


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG")
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY is not set. In production set SECRET_KEY to a long random value (see README, "
            "Production); to run Crawford on your own machine use `make run` (it writes local.env, which "
            "manage.py reads) or set DEBUG=1."
        )
    # Never a key from the repository: a random one, kept in a git-ignored file for local runs so
    # that logins survive a restart (the tests make a fresh one: config/test_settings.py).
    SECRET_KEY = local_secret_key(BASE_DIR / ".local-secret-key")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "axes",
    "simple_history",
    "games",
    "ratings",
    "tournaments",
    "analysis",
    "config",  # the site's own commands (`manage.py periodic`)
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # The person's language (his login's choice, the menu's cookie, Accept-Language): config.languages.
    "config.languages.PreferredLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    "config.middleware.ConflictMiddleware",
    # Rating runs and new-match e-mails a request asks for start once its response has gone out.
    "ratings.background.AfterResponseMiddleware",
    # Last, as django-axes asks: it answers a locked-out login with its lockout page.
    "axes.middleware.AxesMiddleware",
]

# Brute force: the login page and the admin lock a user name out, from the address its wrong
# passwords came from, after LOGIN_FAILURE_LIMIT of them in a row, for AXES_COOLOFF_MINUTES (the
# right password included). Never the address alone: at a venue every phone shares one.
AUTHENTICATION_BACKENDS = [
    "config.security.LoginLockoutBackend",
    "django.contrib.auth.backends.ModelBackend",
    # Not a login: who may read the private details of a report or a match (see its docstring).
    "tournaments.permissions.EventRolesBackend",
]
LOGIN_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", "5"))
AXES_FAILURE_LIMIT = "config.security.login_failure_limit"
AXES_COOLOFF_TIME = timedelta(minutes=int(os.environ.get("AXES_COOLOFF_MINUTES", "15")))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
# Spraying: once wrong passwords for this many different user names came from one address within
# the cool-off, each further name is locked there after AXES_SPRAY_FAILURE_LIMIT wrong passwords
# instead of LOGIN_FAILURE_LIMIT (config.security.login_failure_limit). Other names' right
# passwords are still taken.
AXES_SPRAY_LIMIT = int(os.environ.get("AXES_SPRAY_LIMIT", "10"))
AXES_SPRAY_FAILURE_LIMIT = int(os.environ.get("AXES_SPRAY_FAILURE_LIMIT", "2"))
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
# The client's address: REMOTE_ADDR, or behind NUM_PROXIES proxies of your own the address the
# first of them saw (X-Forwarded-For read from the right, so a client cannot forge it).
NUM_PROXIES = int(os.environ.get("NUM_PROXIES", "0"))
AXES_CLIENT_IP_CALLABLE = "config.security.client_ip"

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "tournaments.context_processors.desk_link",
                "config.health.version",
                "django.template.context_processors.i18n",
                "config.languages.language_menu",
            ],
            # Django's i18n tags, `{% translate %}` of a fixed message looked up once (config/i18n_tags.py).
            "libraries": {"i18n": "config.i18n_tags"},
        },
    },
    {
        # The desk's long lists (a 256-player event's queue and entries) are rendered by Jinja2,
        # several times quicker than Django's engine for a loop of a few hundred rows.
        "NAME": "jinja2",
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "DIRS": [BASE_DIR / "templates" / "jinja2"],
        "APP_DIRS": False,
        "OPTIONS": {"environment": "tournaments.templating.environment", "autoescape": True},
    },
]

# `i18n` names our library (config/i18n_tags.py: Django's i18n tags, with a kept `{% translate %}`)
# on purpose, so every `{% load i18n %}` gets it; Django warns of a library name given twice.
SILENCED_SYSTEM_CHECKS = ["templates.W003"]

WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("DB_CONN_MAX_AGE", "60")),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Wait for a lock instead of failing at once when two requests write together.
    DATABASES["default"].setdefault("OPTIONS", {})["timeout"] = 20
    # Every transaction takes the write lock when it begins, so that one that read first waits
    # for a writer (the ratings after a response) instead of failing with "database is locked".
    DATABASES["default"]["OPTIONS"]["transaction_mode"] = "IMMEDIATE"
    # Write-ahead logging: readers (pages, a rating run loading the history) never hold a writer
    # up nor wait for one; only writers take turns. Kept in the file once set; `sqlite3 .backup`
    # copies a database in this mode safely.
    DATABASES["default"]["OPTIONS"]["init_command"] = "PRAGMA journal_mode=WAL;"
    DATABASES["default"]["CONN_MAX_AGE"] = 0

# The event page keeps its drawn flights here, keyed by the event's results version (so never
# stale). One process: memory. Several processes or hosts: CACHE_URL=redis://host:6379/1.
CACHE_URL = os.environ.get("CACHE_URL") or os.environ.get("REDIS_URL", "")
# A Redis cache fails open (`config.cache`): while Redis is away pages answer without it, and
# gives up on a connection within half a second instead of holding the request.
CACHES = {
    "default": {"BACKEND": "config.cache.FailOpenRedisCache", "LOCATION": CACHE_URL,
                "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5}}
    if CACHE_URL.startswith(("redis://", "rediss://", "unix://"))
    else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "crawford"}
}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# The reason kept with every version in the audit trail is text of any length: a correction's
# reason (up to 500 characters over the API) is never cut or refused by the history table.
SIMPLE_HISTORY_HISTORY_CHANGE_REASON_USE_TEXT_FIELD = True

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# The languages Crawford speaks (README, "Languages"): each has a catalog in locale/. A visitor
# chooses with the menu at the foot of every page; see config/languages.py for the order of choice.
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", "English"),
    ("da", "Danish"),
    ("el", "Greek"),
    ("ja", "Japanese"),
    ("ar", "Arabic"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")
STATICFILES_DIRS = [BASE_DIR / "static"] if (BASE_DIR / "static").is_dir() else []
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # `collectstatic` writes hashed, compressed copies and their manifest (staticfiles.json);
    # pages then name the hashed files, which WhiteNoise serves with a far-future cache header.
    "staticfiles": {"BACKEND": "config.storage.StaticStorage"},
}
# Before the first `collectstatic` (a fresh checkout, the tests), WhiteNoise serves straight from
# the apps' static folders under their plain names.
WHITENOISE_USE_FINDERS = not (STATIC_ROOT / "staticfiles.json").exists()
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT", BASE_DIR / "media"))
MEDIA_URL = "media/"

LOGIN_URL = "admin:login"
LOGIN_REDIRECT_URL = "landing"  # a player lands on his matches, a TD on his desk

# E-mail (sign-up confirmation, password reset): printed on the console unless an SMTP server is
# given (EMAIL_HOST, EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, EMAIL_USE_TLS).
MAILERS = {"default": {
    "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
    "OPTIONS": {
        "host": os.environ["EMAIL_HOST"],
        "port": int(os.environ.get("EMAIL_PORT", 587)),
        "username": os.environ.get("EMAIL_HOST_USER", ""),
        "password": os.environ.get("EMAIL_HOST_PASSWORD", ""),
        "use_tls": os.environ.get("EMAIL_USE_TLS", "true").lower() in ("1", "true", "yes"),
    },
} if os.environ.get("EMAIL_HOST") else {"BACKEND": "django.core.mail.backends.console.EmailBackend"}}
# E-mails anyone may ask for (sign-up confirmation, password reset): at most this many to one
# address, and from one client address, per purpose (config.security.mail_allowed).
MAIL_RATE_PER_ADDRESS = os.environ.get("MAIL_RATE_PER_ADDRESS", "3/hour")
MAIL_RATE_PER_CLIENT = os.environ.get("MAIL_RATE_PER_CLIENT", "10/hour")
# Wrong codes typed on a match's public page (the codes on the slips), counted per client address:
# past the first rate that client's codes for that match, past the second all its codes, are
# refused until the hour is over. Other clients' codes, the players' right ones, are never held up.
SLIP_CODE_RATE_PER_PAIRING = os.environ.get("SLIP_CODE_RATE_PER_PAIRING", "10/hour")
SLIP_CODE_RATE_PER_CLIENT = os.environ.get("SLIP_CODE_RATE_PER_CLIENT", "20/hour")
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Crawford <crawford@localhost>")
# The address players open the site at, for the links of every e-mail (config.links.site_url), sent
# by a page or by a background task alike. Required in production: a default would send players to
# localhost.
SITE_URL = os.environ.get("SITE_URL", "").rstrip("/")
if not SITE_URL:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SITE_URL is not set. In production set SITE_URL to the address players open the site at, "
            "e.g. https://crawford.example.org (see README, Production)."
        )
    SITE_URL = "http://localhost:8000"

# The address the QR codes of the match slips point at, when it is not the one the TD opened the
# desk at: at a venue without internet the TD opens http://localhost:8000 on his laptop and the
# players' phones reach the laptop at its address on the venue's wifi (http://192.168.1.20:8000).
SLIP_BASE_URL = os.environ.get("SLIP_BASE_URL", "").rstrip("/")

# Largest match file accepted for upload (bytes).
CRAWFORD_MAX_MATCH_FILE_BYTES = int(os.environ.get("CRAWFORD_MAX_MATCH_FILE_BYTES", 2 * 1024 * 1024))
CRAWFORD_MATCH_FILE_JOB_BYTES = int(os.environ.get("CRAWFORD_MATCH_FILE_JOB_BYTES", 256 * 1024))
CRAWFORD_MAX_RESULTS_FILE_BYTES = int(os.environ.get("CRAWFORD_MAX_RESULTS_FILE_BYTES", 20 * 1024 * 1024))
DATA_UPLOAD_MAX_MEMORY_SIZE = max(2_621_440, CRAWFORD_MAX_MATCH_FILE_BYTES + 65_536)

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "config.schema.AutoSchema",
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "config.security.ThrottledTokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_PARSER_CLASSES": [
        "config.parsers.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "config.api.PageNumberPagination",
    "PAGE_SIZE": 50,
    "EXCEPTION_HANDLER": "config.api.exception_handler",
    "NUM_PROXIES": NUM_PROXIES or None,
    # A wrong token counts against its address; past this rate the API answers 429 (see
    # config.security.ThrottledTokenAuthentication).
    "DEFAULT_THROTTLE_RATES": {"failed_auth": os.environ.get("API_FAILED_AUTH_RATE", "10/min")},
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Crawford API",
    # The schema answers in the language of its request (Accept-Language, or ?lang=): its descriptions
    # and the serializers' help texts are marked lazily, read when the schema is made.
    "DESCRIPTION": gettext_lazy("Backgammon tournaments, match results with the rules of match play enforced, "
                                "and ratings."),
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI from drf-spectacular-sidecar's static files: the docs work with no internet.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    "ENUM_NAME_OVERRIDES": {
        "MatchKindEnum": "games.models.MatchKindChoice",
        "ResultKindEnum": "games.models.ResultKindChoice",
        "GameEndEnum": "games.engine.scoring.GameEnd",
        "MatchStatusEnum": "games.models.MatchStatus",
        "TournamentStatusEnum": "tournaments.models.TournamentStatus",
        "FlightKindEnum": "tournaments.models.FlightKindChoice",
        "FlightStatusEnum": "tournaments.models.FlightStatus",
        "EntryStatusEnum": "tournaments.models.EntryStatus",
        "RoundStatusEnum": "tournaments.models.RoundStatus",
        "PairingStatusEnum": "tournaments.models.PairingStatus",
        "ReportStatusEnum": "tournaments.models.ReportStatus",
        "RunStatusEnum": "ratings.models.RunStatus",
    },
}

# Celery: no broker configured means tasks run eagerly, in-process.
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "")
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
# Rating runs a request asks for (executed, without a broker) and the new-match notices a Save
# asks for start after its response, on a thread (`ratings.background`), so a Save never waits
# for them. Off, they are done inside the request (the tests: config/test_settings.py).
RATINGS_AFTER_RESPONSE = env_bool("RATINGS_AFTER_RESPONSE", True)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_RESULT_BACKEND = os.environ.get("CELERY_RESULT_BACKEND") or None
# A task is acknowledged when it ends, and given back when the process running it dies.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_TRANSPORT_OPTIONS = {
    # Redis hands a task that was taken but never acknowledged (its worker vanished) to another
    # worker after this long. It must exceed the longest task, a recompute of the whole history
    # and the runs it chains, or a live task is handed out twice (harmless, but wasted).
    "visibility_timeout": int(os.environ.get("CELERY_VISIBILITY_TIMEOUT", "3600")),
    # A broker that does not answer fails a send within seconds; the write that sent it succeeds.
    "socket_connect_timeout": 3,
}

# A rating run whose worker has not reported for this long is taken as dead and superseded. A
# live run reports every 10,000 matches rated and every 100,000 changes written; its longest
# silence is loading the history (20 to 40 s for a million matches on a busy two-core machine).
# The luck-adjusted variant of the variance-adjusted rating (`skill`): analysed matches rated by
# their luck-adjusted result. Off by default: on the bot league it did not beat `crawford`
# (bench/ratings_luck.py, docs/ratings.md). When on, the worker computes it like the others.
RATINGS_LUCK_ADJUSTED = env_bool("RATINGS_LUCK_ADJUSTED", False)
# The rating that stands for a player where the site shows one (the rating list, the TD's desk,
# seeding by rating): `crawford`, `fibs`, or `skill` when it is on; one that is off means crawford.
RATINGS_DEFAULT_SYSTEM = os.environ.get("RATINGS_DEFAULT_SYSTEM", "crawford")


# Month checkpoints each rating system keeps: a correction reaching further back runs in full.
RATINGS_CHECKPOINT_MONTHS = int(os.environ.get("RATINGS_CHECKPOINT_MONTHS", "12"))
# Day checkpoints it keeps: a result entered after later ones reruns from the start of its day.
RATINGS_CHECKPOINT_DAYS = int(os.environ.get("RATINGS_CHECKPOINT_DAYS", "7"))

# How often a running event's page (and My matches) asks for its changes, in seconds.
EVENT_REFRESH_SECONDS = int(os.environ.get("EVENT_REFRESH_SECONDS", "20"))

# Every background job (rating run, import, analysis, notification) whose worker has not
# reported for this long is taken as dead and taken over (`games.jobs`). A rating run reports
# every 10,000 matches rated and every 100,000 changes written, an import every chunk, an
# analysis while GNU Backgammon runs; the longest silence is a rating run loading the history
# (20 to 40 s for a million matches on a busy two-core machine).
CRAWFORD_STALE_SECONDS = int(os.environ.get("CRAWFORD_STALE_SECONDS", "300"))

# The periodic sweep (`celery -A config beat`, or `worker -B` on one machine): send again every
# job a lost message or a dead worker left behind, and rate what the outbox holds.
CRAWFORD_SWEEP_SECONDS = float(os.environ.get("CRAWFORD_SWEEP_SECONDS", "30"))
CELERY_BEAT_SCHEDULE = {
    "jobs-sweep": {
        "task": "games.jobs_sweep",
        "schedule": CRAWFORD_SWEEP_SECONDS,
        "options": {"expires": CRAWFORD_SWEEP_SECONDS},  # sweeps queued while no worker ran are dropped
    },
}

# A result's Save carries a key made when it was typed (tournaments.services.idempotency): the
# same Save sent again within this many days gets its first answer and stores nothing. Beat
# forgets older keys once a day.
SAVE_KEY_DAYS = int(os.environ.get("SAVE_KEY_DAYS", "30"))
CELERY_BEAT_SCHEDULE["save-keys-prune"] = {
    "task": "tournaments.save_keys_prune",
    "schedule": 24 * 3600,
    "options": {"expires": 3600},
}

# The monthly fit of crawford's parameters on this site's own history (`ratings.calibrate`, the
# 1st of each month at 03:00): off by default. It only proposes; a staff member adopts
# (`manage.py calibrate_ratings --adopt ID --by USERNAME`).
RATINGS_CALIBRATE_MONTHLY = env_bool("RATINGS_CALIBRATE_MONTHLY", False)
if RATINGS_CALIBRATE_MONTHLY:
    from celery.schedules import crontab

    CELERY_BEAT_SCHEDULE["ratings-calibrate"] = {"task": "ratings.calibrate",
                                                 "schedule": crontab(minute=0, hour=3, day_of_month=1)}

# Analysis with GNU Backgammon, a separate program run by the worker (off where it is missing).
CRAWFORD_ANALYSIS = env_bool("CRAWFORD_ANALYSIS", True)
CRAWFORD_GNUBG = os.environ.get("CRAWFORD_GNUBG", "gnubg")
CRAWFORD_ANALYSIS_PLIES = int(os.environ.get("CRAWFORD_ANALYSIS_PLIES", "0"))
CRAWFORD_ANALYSIS_TIMEOUT = int(os.environ.get("CRAWFORD_ANALYSIS_TIMEOUT", "120"))

# /health/ (config/health.py): beat sends a heartbeat that a worker writes into Redis; the answer
# is 503 when it is older than HEALTH_WORKER_SILENT_SECONDS, a rating change has been owed longer
# than HEALTH_RATINGS_OWED_SECONDS, or an analysis has waited longer than HEALTH_ANALYSIS_WAIT_SECONDS.
HEALTH_HEARTBEAT_SECONDS = float(os.environ.get("HEALTH_HEARTBEAT_SECONDS", "30"))
HEALTH_WORKER_SILENT_SECONDS = float(os.environ.get("HEALTH_WORKER_SILENT_SECONDS", "120"))
HEALTH_RATINGS_OWED_SECONDS = float(os.environ.get("HEALTH_RATINGS_OWED_SECONDS", "600"))
HEALTH_ANALYSIS_WAIT_SECONDS = float(os.environ.get("HEALTH_ANALYSIS_WAIT_SECONDS", "3600"))
CELERY_BEAT_SCHEDULE["heartbeat"] = {
    "task": "crawford.heartbeat",
    "schedule": HEALTH_HEARTBEAT_SECONDS,
    "options": {"expires": HEALTH_HEARTBEAT_SECONDS},
}

# Production hardening: on whenever DEBUG is off, except where a local run asks otherwise.
SECURE_HTTPS = env_bool("SECURE_HTTPS", default=not DEBUG)
if SECURE_HTTPS:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = True
    LANGUAGE_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
SECURE_CONTENT_TYPE_NOSNIFF = True
# Content-Security-Policy on every answer (Django's own CSP middleware): scripts and style sheets
# only from this site, no inline script at all. Style attributes are allowed (the bracket places
# its boxes with computed positions); style elements are not. The embeddable event page may be
# framed by any site (tournaments.views.public.events.event_embed); nothing else may be framed.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "style-src-elem": [CSP.SELF],
    "style-src-attr": [CSP.UNSAFE_INLINE],
    "img-src": [CSP.SELF, "data:"],
    "connect-src": [CSP.SELF],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
}
X_FRAME_OPTIONS = "DENY"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"without_traceback": {"()": "config.logs.WithoutTraceback"}},
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {
        "django.db.backends": {"level": "INFO"},
        # A request for a host not in ALLOWED_HOSTS (a scanner, a stale DNS name) is a 400 and one
        # line in the log, not Django's traceback of fourteen.
        "django.security.DisallowedHost": {"filters": ["without_traceback"]},
    },
}

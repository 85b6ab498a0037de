"""Crawford's one settings module, driven by environment variables with working defaults.

Nothing set: SQLite in the project folder, tasks run eagerly in-process, DEBUG off.
Production: DATABASE_URL=postgres://..., CELERY_BROKER_URL=redis://..., SECRET_KEY,
ALLOWED_HOSTS, and HTTPS behind a proxy (SECURE_* below).
"""

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG")
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG and env_bool("CRAWFORD_REQUIRE_SECRET_KEY"):
        raise ImproperlyConfigured("SECRET_KEY must be set in production.")
    # A key for local use only; production sets SECRET_KEY (see README).
    SECRET_KEY = "insecure-local-only-" + "crawford-development-key-not-for-production-use-0123456789"

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
    "simple_history",
    "games",
    "ratings",
    "tournaments",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
]

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
            ],
        },
    },
]

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
    DATABASES["default"]["CONN_MAX_AGE"] = 0

# The event page keeps its drawn flights here, keyed by the event's results version (so never
# stale). One process: memory. Several processes or hosts: CACHE_URL=redis://host:6379/1.
CACHE_URL = os.environ.get("CACHE_URL") or os.environ.get("REDIS_URL", "")
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": CACHE_URL}
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

LANGUAGE_CODE = "en"
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"] if (BASE_DIR / "static").is_dir() else []
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        # Hashed, compressed names once `collectstatic` has run (production); plain names before.
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if (STATIC_ROOT / "staticfiles.json").exists() and not DEBUG
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}
# Before `collectstatic`, WhiteNoise serves straight from the apps' static folders.
WHITENOISE_USE_FINDERS = not (STATIC_ROOT / "staticfiles.json").exists()
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT", BASE_DIR / "media"))
MEDIA_URL = "media/"

LOGIN_URL = "admin:login"

# Largest match file accepted for upload (bytes).
CRAWFORD_MAX_MATCH_FILE_BYTES = int(os.environ.get("CRAWFORD_MAX_MATCH_FILE_BYTES", 2 * 1024 * 1024))
CRAWFORD_MAX_RESULTS_FILE_BYTES = int(os.environ.get("CRAWFORD_MAX_RESULTS_FILE_BYTES", 20 * 1024 * 1024))
DATA_UPLOAD_MAX_MEMORY_SIZE = max(2_621_440, CRAWFORD_MAX_MATCH_FILE_BYTES + 65_536)

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    "EXCEPTION_HANDLER": "config.api.exception_handler",
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Crawford API",
    "DESCRIPTION": "Backgammon tournaments, match results with the rules of match play enforced, and ratings.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
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
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_RESULT_BACKEND = os.environ.get("CELERY_RESULT_BACKEND") or None
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True

# A rating run whose worker has not reported for this long is taken as dead and superseded.
RATINGS_RUN_STALE_SECONDS = int(os.environ.get("RATINGS_RUN_STALE_SECONDS", "600"))

# Production hardening: on whenever DEBUG is off, except where a local run asks otherwise.
SECURE_HTTPS = env_bool("SECURE_HTTPS", default=not DEBUG and bool(os.environ.get("SECRET_KEY")))
if SECURE_HTTPS:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {"django.db.backends": {"level": "INFO"}},
}

"""The Jinja2 environment's `_()` reads the active language's catalog, each message looked up once."""

from django.template import engines
from django.utils import translation


def _save_button() -> str:
    return engines["jinja2"].env.from_string('{{ _("Save") }}').render()


def test_jinja_s_gettext_follows_the_active_language_from_render_to_render():
    with translation.override("da"):
        assert _save_button() == "Gem"
    with translation.override("en"):
        assert _save_button() == "Save"
    with translation.override("ja"):
        assert _save_button() == _save_button() == translation.gettext("Save") != "Save"


def test_a_change_of_catalogs_forgets_the_translations_kept(settings, tmp_path):
    import polib

    with translation.override("da"):
        assert _save_button() == "Gem"
    catalog = polib.POFile()
    catalog.metadata = {"Content-Type": "text/plain; charset=UTF-8", "Language": "da"}
    catalog.append(polib.POEntry(msgid="Save", msgstr="Gem nu"))
    folder = tmp_path / "da" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    catalog.save_as_mofile(str(folder / "django.mo"))
    settings.LOCALE_PATHS = [tmp_path, *settings.LOCALE_PATHS]
    with translation.override("da"):
        assert _save_button() == "Gem nu"


def test_jinja_s_decimals_write_what_django_s_floatformat_writes_in_every_language():
    import random
    from decimal import Decimal

    from django.template.defaultfilters import floatformat

    values = [0, 1, -1, 0.05, -0.05, 0.04, -0.04, 0.25, 2.675, 1977.85, 1977.95, -3.45, 1e-7, -1e-7, 1e16,
              123456789.125, 1.5, 2.5, -2.5, 1500, 1500.0, Decimal("12.345"), "7.25", "x", None, float("nan"),
              float("inf"), 10**70, -0.0]
    generator = random.Random(7)
    values += [generator.uniform(-3000, 3000) for _ in range(300)]
    values += [round(generator.uniform(0, 400), 2) for _ in range(100)]  # halves and quarters to round
    template = engines["jinja2"].env.from_string("{% set fixed = decimals() %}{{ fixed(v, p) }}")
    for language in ("en", "da", "el", "ja", "ar"):
        with translation.override(language):
            fixed = engines["jinja2"].env.globals["decimals"]()
            for value in values:
                for places in range(4):
                    assert fixed(value, places) == str(floatformat(value, places)), (language, value, places)
            assert template.render(v=1977.85, p=1) == str(floatformat(1977.85, 1))


def test_jinja_s_underscore_in_a_loop_translates_each_row_without_a_context_of_its_own():
    env = engines["jinja2"].env
    template = env.from_string('{% for n in rows %}{% set x = n %}{{ _("Save") }} {{ x }};{% endfor %}')
    with translation.override("da"):
        assert template.render(rows=[1, 2]) == "Gem 1;Gem 2;"
    assert not hasattr(env.globals["_"], "jinja_pass_arg")  # a context passed: a copy of the loop's per call


def _jinja(source: str, **context) -> str:
    return engines["jinja2"].env.from_string(source).render(**context)


def _django(source: str, **context) -> str:
    return engines["django"].from_string(source).render(context)


def test_jinja_s_date_writes_what_django_s_filter_writes_in_each_language(settings):
    from datetime import UTC, date, datetime

    settings.TIME_ZONE = "Asia/Tokyo"  # 23:30 UTC is the next day in Tokyo
    moment, day = datetime(2026, 3, 4, 23, 30, tzinfo=UTC), date(2026, 5, 1)
    cases = [(moment, "j M Y"), (moment, "D j F Y, H:i"), (moment, "DATE_FORMAT"), (day, "j M Y"), (None, "j M Y"),
             (moment, ""), (day, "<j>")]
    for language in ("en", "da", "el", "ja", "ar"):
        with translation.override(language):
            for value, form in cases:
                expected = _django("{{ value|date:form }}", value=value, form=form)
                assert _jinja("{{ value|date(form) }}", value=value, form=form) == expected, (language, form)
                assert _jinja("{{ value|date(form) }}", value=value, form=form) == expected  # as kept
    with translation.override("da"):
        assert _jinja("{{ value|date('j. M Y') }}", value=moment) == "5. Mar 2026"
        assert _jinja("{{ day|date('<j>') }}", day=date(2026, 5, 1)) == "&lt;1&gt;"


def test_a_change_of_formats_forgets_the_days_kept(settings):
    from datetime import date

    from tournaments import templating

    with translation.override("en"):
        assert _jinja("{{ day|date('j M Y') }}", day=date(2026, 5, 1)) == "1 May 2026"
        assert templating._day_written.cache_info().currsize
        settings.DATE_FORMAT = "Y-m-d"
        assert not templating._day_written.cache_info().currsize


def test_localized_dates_writes_what_localized_date_writes_of_each(settings):
    from datetime import UTC, date, datetime, timedelta

    from tournaments.templating import localized_date, localized_dates

    settings.TIME_ZONE = "America/New_York"  # 02:00 UTC is the day before there
    values = [datetime(2026, 1, 1, 2, tzinfo=UTC) + timedelta(days=n, hours=n) for n in range(40)] + [date(2026, 2, 1)]
    for language in ("en", "da", "ar"):
        with translation.override(language):
            assert localized_dates(values, "j M Y") == [localized_date(value, "j M Y") for value in values]
            moments = values[:-1]  # a day has no time to write
            assert localized_dates(moments, "j M Y H:i") == [localized_date(value, "j M Y H:i") for value in moments]
    with translation.override("en"):
        assert localized_dates(values[:1], "j M Y") == ["31 Dec 2025"]

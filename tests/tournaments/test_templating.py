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

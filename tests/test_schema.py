"""The OpenAPI schema is valid and drf-spectacular has nothing to warn about."""

from django.core.management import call_command


def test_the_schema_validates_without_warnings(tmp_path):
    out = tmp_path / "schema.yaml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(out))
    text = out.read_text()
    for name in ("MatchStatusEnum", "PairingStatusEnum", "RunStatusEnum", "FlightKindEnum", "DecisionKindEnum"):
        assert f"    {name}:" in text

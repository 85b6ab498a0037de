"""The OpenAPI schema is valid and drf-spectacular has nothing to warn about."""

from django.core.management import call_command


def test_the_schema_validates_without_warnings(tmp_path):
    out = tmp_path / "schema.yaml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(out))
    text = out.read_text()
    for name in ("MatchStatusEnum", "PairingStatusEnum", "RunStatusEnum", "FlightKindEnum", "DecisionKindEnum"):
        assert f"    {name}:" in text


def test_the_schema_answers_in_the_language_of_its_request(client):
    danish = client.get("/api/schema/?format=json", HTTP_ACCEPT_LANGUAGE="da")
    assert (danish.status_code, danish["Content-Language"]) == (200, "da")
    schema = danish.json()
    assert schema["info"]["description"] == "Backgammonturneringer, matchresultater efter reglerne for matchspil, og ratings."
    game = schema["components"]["schemas"]["GameInputRequest"]["properties"]
    assert game["winner"]["description"] == "Vinderens spiller-id."
    assert game["cube_owner"]["description"] == "Spiller-id for terningens ejer; null hvis den står i midten eller er ukendt."
    forecast = next(p for p in schema["paths"]["/api/v1/ratings/predict/"]["get"]["parameters"] if p["name"] == "a")
    assert forecast["description"] == "Spiller A: id eller navn"
    japanese = client.get("/api/schema/?format=json&lang=ja").json()
    assert japanese["components"]["schemas"]["ForfeitRequest"]["properties"]["forfeited_by"]["description"] == (
        "マッチを放棄する選手の選手 ID。")
    english = client.get("/api/schema/?format=json").json()
    assert english["components"]["schemas"]["GameInputRequest"]["properties"]["winner"]["description"] == (
        "Player id of the winner.")

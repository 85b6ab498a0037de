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
    predict = schema["paths"]["/api/v1/ratings/predict/"]["get"]
    assert predict["description"] == "Hver spillers chance for at vinde en match til `length` point, med usikkerheden."
    assert next(p for p in predict["parameters"] if p["name"] == "a")["description"] == "Spiller A: id eller navn"
    assert schema["components"]["schemas"]["GameInputRequest"]["description"] == (
        "Ét spil på et scoreark. Spillerne angives med deres id'er.")
    assert schema["paths"]["/api/v1/rounds/"]["get"]["description"] == (
        "Rækkernes runder, med deres status, matchlængde og meddelte start. `?flight=` og `?status=` filtrerer.")
    japanese = client.get("/api/schema/?format=json&lang=ja").json()
    assert japanese["components"]["schemas"]["ForfeitRequest"]["properties"]["forfeited_by"]["description"] == (
        "マッチを放棄する選手の選手 ID。")
    english = client.get("/api/schema/?format=json").json()
    assert english["components"]["schemas"]["GameInputRequest"]["properties"]["winner"]["description"] == (
        "Player id of the winner.")
    assert english["paths"]["/api/v1/ratings/predict/"]["get"]["description"] == (
        "Each player's chance to win a match of `length` points, with the uncertainty.")


def _query_parameters(schema: dict, name: str) -> set[str]:
    return {parameter["description"] for operations in schema["paths"].values() for operation in operations.values()
            for parameter in operation.get("parameters", ()) if parameter["in"] == "query" and parameter["name"] == name}


def test_the_page_and_search_parameters_are_described_in_the_language_of_the_request(client):
    danish = client.get("/api/schema/?format=json&lang=da").json()
    assert _query_parameters(danish, "page") == {"Den side af resultaterne, der skal vises: 1 (den første), hvis intet "
                                                 "er angivet."}
    assert _query_parameters(danish, "search") == {"Ord at søge efter i navnene; hvert ord skal findes."}
    japanese = client.get("/api/schema/?format=json&lang=ja").json()
    assert _query_parameters(japanese, "page") == {"表示する結果のページ。指定がなければ 1（最初のページ）。"}
    assert _query_parameters(japanese, "search") == {"名前の中で探す語。すべての語が見つかる必要があります。"}
    english = client.get("/api/schema/?format=json").json()
    assert _query_parameters(english, "page") == {"The page of the results to show: 1 (the first) unless given."}
    assert _query_parameters(english, "search") == {"Words to look for in the names; every word must be found."}


def test_a_record_s_id_in_the_path_is_described_in_the_language_of_the_request(client):
    def described(language: str) -> str:
        schema = client.get(f"/api/schema/?format=json&lang={language}").json()
        parameters = schema["paths"]["/api/v1/matches/{id}/"]["get"]["parameters"]
        return next(p["description"] for p in parameters if p["in"] == "path" and p["name"] == "id")

    assert described("en") == "The id of the match."
    assert described("da") == "Id for match."
    assert described("ja") == "マッチの ID。"

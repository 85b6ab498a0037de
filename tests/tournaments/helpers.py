"""What the API tests of events share."""

API = "/api/v1"


def ok(response, code=200):
    """The JSON body of a response that has the expected status (the body is shown when not)."""
    assert response.status_code == code, response.content
    return response.json()

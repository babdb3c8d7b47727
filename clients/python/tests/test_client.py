"""The Python package against a running Titlecard (scripts/python-client-test.sh starts one).

Environment: TITLECARD_API (the spec's base_url, ``http://host:port/api``), TITLECARD_TOKEN (an
agency account's token), TITLECARD_FREE_TOKEN (a fresh free account's, whose quota the 429 test
uses up) and TITLECARD_PHOTO (a JPEG to upload).
"""

from __future__ import annotations

import os
import threading
import time
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path

import httpx
import pytest
from titlecard import (
    AuthenticatedClient,
    WebhookVerificationError,
    sign_render_url,
    verify_webhook,
)
from titlecard.api.default import (
    create_preset,
    create_signing_key,
    create_template,
    create_token,
    create_webhook,
    delete_webhook,
    generate_image,
    get_image,
    get_usage,
    list_images,
    list_tokens,
    revoke_token,
    send_webhook_test,
    upload_asset,
    validate_token,
)
from titlecard.models import (
    AuthErrorBody,
    CreatePresetResponse201,
    CreateSigningKeyRequest,
    CreateSigningKeyResponse201,
    CreateTokenRequest,
    CreateTokenResponse201,
    CreateWebhookResponse201,
    EndpointErrorBody,
    CreateTemplateResponse201,
    GenerateImageBody,
    GenerateImageBodyFields,
    GenerateImageBodyFileFormat,
    GenerateImageResponse201,
    GetUsageResponse200,
    ListImagesResponse200,
    ListTokensResponse200,
    PresetRequest,
    PresetRequestTemplateName,
    QuotaErrorBody,
    TemplateDocument,
    RevokeTokenResponse200,
    UploadAssetBody,
    UploadAssetResponse201,
    ValidateTokenResponse200,
    ValidationErrorBody,
    WebhookRequest,
)
from titlecard.types import File

API = os.environ["TITLECARD_API"]
PUBLIC_URL = API.removesuffix("/api")
PHOTO = Path(os.environ["TITLECARD_PHOTO"]).read_bytes()


def client(token: str | None = None) -> AuthenticatedClient:
    return AuthenticatedClient(
        base_url=API, token=token or os.environ["TITLECARD_TOKEN"], timeout=60
    )


def generate(api: AuthenticatedClient, title: str, **options: object):
    body = GenerateImageBody(
        image=File(payload=PHOTO, file_name="photo.jpg", mime_type="image/jpeg"),
        title=title,
        **options,
    )
    return generate_image.sync(client=api, body=body)


def test_generate_with_an_upload_answers_the_image_record():
    made = generate(
        client(),
        "From Python",
        subtitle="pytest",
        file_format=GenerateImageBodyFileFormat.WEBP,
        gradient=False,
    )
    assert isinstance(made, GenerateImageResponse201), made
    assert (made.data.width, made.data.height) == (1200, 630)
    assert made.data.url.endswith(".webp")
    card = httpx.get(made.data.url)
    assert card.status_code == 200
    assert card.headers["content-type"] == "image/webp"
    again = get_image.sync(made.data.id, client=client())
    assert again.data.title == "From Python"


def test_list_pages_through_the_images_newest_first():
    api = client(
        create_token.sync(
            client=client(), body=CreateTokenRequest(name="lister")
        ).data.token
    )
    for title in ("one", "two", "three"):
        assert isinstance(generate(api, title), GenerateImageResponse201)
    first = list_images.sync(client=api, limit=2)
    assert isinstance(first, ListImagesResponse200), first
    total = first.data.pagination.total
    assert total >= 3 and first.data.pagination.has_more
    assert [i.title for i in first.data.images][:1] == ["three"]
    rest = list_images.sync(client=api, limit=2, offset=2)
    assert rest.data.pagination.offset == 2
    seen = [i.id for i in first.data.images] + [i.id for i in rest.data.images]
    assert len(set(seen)) == len(seen)


def test_usage_counts_the_month():
    before = get_usage.sync(client=client())
    assert isinstance(before, GetUsageResponse200), before
    assert isinstance(generate(client(), "counted"), GenerateImageResponse201)
    after = get_usage.sync(client=client())
    assert after.data.usage.generated == before.data.usage.generated + 1
    assert (
        after.data.usage.remaining
        == after.data.usage.limit - after.data.usage.generated
    )
    assert after.data.tier.value == "agency"


def test_tokens_are_created_listed_validated_and_revoked():
    made = create_token.sync(client=client(), body=CreateTokenRequest(name="ci token"))
    assert isinstance(made, CreateTokenResponse201), made
    token = made.data.token
    assert token.startswith("tc_")
    listed = list_tokens.sync(client=client())
    assert isinstance(listed, ListTokensResponse200)
    assert made.data.id in [t.id for t in listed.data.tokens]
    valid = validate_token.sync(client=client(token))
    assert isinstance(valid, ValidateTokenResponse200), valid
    assert valid.data.user.tier.value == "agency"
    revoked = revoke_token.sync(made.data.id, client=client())
    assert isinstance(revoked, RevokeTokenResponse200), revoked
    refused = validate_token.sync(client=client(token))
    assert isinstance(refused, AuthErrorBody), refused


def test_a_signed_render_link_is_fetched_as_a_site_would():
    api = client()
    asset = upload_asset.sync(
        client=api,
        body=UploadAssetBody(
            image=File(payload=PHOTO, file_name="harbour.jpg", mime_type="image/jpeg")
        ),
    )
    assert isinstance(asset, UploadAssetResponse201), asset
    preset = create_preset.sync(
        client=api,
        body=PresetRequest(
            name="Blog",
            template=PresetRequestTemplateName.LEFT,
            background=asset.data.id,
        ),
    )
    assert isinstance(preset, CreatePresetResponse201), preset
    key = create_signing_key.sync(client=api, body=CreateSigningKeyRequest(name="site"))
    assert isinstance(key, CreateSigningKeyResponse201), key
    link = sign_render_url(
        PUBLIC_URL,
        preset.data.id,
        "Signed in Python: ünïcödé & co",
        key.data.id,
        key.data.secret,
        fmt="jpeg",
    )
    # The link redirects to the card's content-hashed URL, as crawlers follow it.
    card = httpx.get(link, follow_redirects=True)
    assert card.status_code == 200, card.text
    assert [r.status_code for r in card.history] == [302]
    assert card.url.path.startswith("/c/")
    assert card.headers["content-type"] == "image/jpeg"
    tampered = httpx.get(link.replace("title=Signed", "title=Forged"))
    assert tampered.status_code == 403


@pytest.mark.parametrize(
    ("call", "status", "body_type", "field"),
    [
        (
            lambda: list_images.sync_detailed(client=client(), limit=500),
            400,
            ValidationErrorBody,
            "limit",
        ),
        (
            lambda: get_usage.sync_detailed(client=client("tc_" + "x" * 40)),
            401,
            AuthErrorBody,
            None,
        ),
        (
            lambda: get_image.sync_detailed(
                "img_0000000000000000000000", client=client()
            ),
            404,
            EndpointErrorBody,
            None,
        ),
        (
            lambda: generate_image.sync_detailed(
                client=client(), body=GenerateImageBody(title="no photo")
            ),
            400,
            ValidationErrorBody,
            "image",
        ),
    ],
    ids=["bad limit", "unknown token", "unknown image", "no background"],
)
def test_each_error_body_is_parsed_into_its_type(call, status, body_type, field):
    answer = call()
    assert answer.status_code == status
    assert isinstance(answer.parsed, body_type), answer.parsed
    if field is not None:
        assert answer.parsed.error.details.field == field


def test_a_used_up_quota_is_a_quota_error_body():
    api = client(os.environ["TITLECARD_FREE_TOKEN"])
    limit = get_usage.sync(client=api).data.usage.limit
    for _ in range(limit):
        assert isinstance(
            generate(api, "spent", file_format=GenerateImageBodyFileFormat.JPEG),
            GenerateImageResponse201,
        )
    refused = generate_image.sync_detailed(
        client=api, body=GenerateImageBody(title="one more")
    )
    assert refused.status_code == 429
    assert isinstance(refused.parsed, QuotaErrorBody), refused.parsed
    assert refused.parsed.retry_after > 0


def test_sign_render_url_matches_the_worked_example_of_the_docs():
    link = sign_render_url(
        "https://cards.example.com/",
        "pre_0000000000000000000001",
        "Hello, world",
        "key_0000000000000000000001",
        "tcs_example",
    )
    assert link == (
        "https://cards.example.com/r/pre_0000000000000000000001.png?key=key_0000000000000000000001"
        "&title=Hello%2C%20world&sig=rVXwBUQQi47CA1twzP5m4zwJ4RcWxZaD_k1nyNvdr6M"
    )


def test_verify_webhook_accepts_a_real_delivery_and_refuses_a_tampered_one():
    """An endpoint on a receiver in this process; its test event verified as a user's receiver would."""
    received: list[tuple[bytes, dict[str, str]]] = []

    class Receiver(BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802 (http.server's name)
            body = self.rfile.read(int(self.headers["content-length"]))
            received.append((body, dict(self.headers.items())))
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = HTTPServer(("127.0.0.1", 0), Receiver)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        api = client()
        made = create_webhook.sync(
            client=api,
            body=WebhookRequest(url=f"http://127.0.0.1:{server.server_port}/hook"),
        )
        assert isinstance(made, CreateWebhookResponse201), made
        assert (
            send_webhook_test.sync_detailed(made.data.id, client=api).status_code == 202
        )
        deadline = time.monotonic() + 20
        while not received and time.monotonic() < deadline:
            time.sleep(0.05)
        body, headers = received[0]
        event = verify_webhook(body, headers, made.data.secret)
        assert event["type"] == "webhook.test"
        assert event["data"] == {"endpoint": made.data.id}
        with pytest.raises(WebhookVerificationError):
            verify_webhook(
                body.replace(b"webhook.test", b"image.created"),
                headers,
                made.data.secret,
            )
        with pytest.raises(WebhookVerificationError):
            verify_webhook(body, headers, "whsec_" + "A" * 32)
        delete_webhook.sync(made.data.id, client=api)
    finally:
        server.shutdown()


def test_a_template_is_saved_and_filled_with_fields():
    api = client()
    document = TemplateDocument.from_dict(
        {
            "name": "Quote from Python",
            "variables": {"who": {"type": "text", "required": True}},
            "layers": [
                {"type": "image", "source": "background"},
                {
                    "type": "text",
                    "content": "{{title}}",
                    "box": {"x": 0.1, "y": 0.1, "w": 0.8, "h": 0.5},
                },
                {
                    "type": "text",
                    "content": "{{who}}",
                    "box": {"x": 0.1, "y": 0.7, "w": 0.8, "h": 0.1},
                },
            ],
        }
    )
    created = create_template.sync(client=api, body=document)
    assert isinstance(created, CreateTemplateResponse201), created
    assert created.data.id.startswith("tpl_")
    missing = generate_image.sync_detailed(
        client=api,
        body=GenerateImageBody(
            image=File(payload=PHOTO, file_name="photo.jpg", mime_type="image/jpeg"),
            title="Less, but better",
            template=created.data.id,
        ),
    )
    assert missing.status_code == 400
    assert isinstance(missing.parsed, ValidationErrorBody)
    assert missing.parsed.error.details.field == "fields.who"
    made = generate(
        api,
        "Less, but better",
        template=created.data.id,
        fields=GenerateImageBodyFields.from_dict({"who": "Dieter Rams"}),
    )
    assert isinstance(made, GenerateImageResponse201), made
    assert made.data.width == 1200

"""The Python examples of docs/clients.md run, in order, as one program against the running server.

They are written for ``https://cards.example.com``; here the API's URL is the test server's, the
token TITLECARD_TOKEN's and ``photo.jpg`` the test photo (environment: see test_client.py).
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

DOC = Path(__file__).resolve().parents[3] / "docs" / "clients.md"


def test_the_python_examples_of_the_docs_run_against_a_server(
    tmp_path, monkeypatch, capsys
):
    blocks = re.findall(
        r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.DOTALL
    )
    assert len(blocks) >= 8
    program = "\n".join(blocks).replace(
        "https://cards.example.com/api", os.environ["TITLECARD_API"]
    )
    shutil.copy(os.environ["TITLECARD_PHOTO"], tmp_path / "photo.jpg")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TOKEN", os.environ["TITLECARD_TOKEN"])
    exec(compile(program, str(DOC), "exec"), {})
    printed = capsys.readouterr().out
    assert "/files/" in printed  # the generated image's URL
    assert "limit max" in printed  # the validation error's field and constraint
    assert "https://cards.example.com/r/pre_0000000000000000000001.png?key=" in printed


README = Path(__file__).resolve().parents[1] / "README.md"


def test_the_readme_example_runs_against_a_server(tmp_path, monkeypatch, capsys):
    blocks = re.findall(
        r"```python\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.DOTALL
    )
    assert len(blocks) == 1
    program = blocks[0].replace(
        "https://cards.example.com/api", os.environ["TITLECARD_API"]
    )
    shutil.copy(os.environ["TITLECARD_PHOTO"], tmp_path / "photo.jpg")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TITLECARD_TOKEN", os.environ["TITLECARD_TOKEN"])
    monkeypatch.setenv("TITLECARD_WEBHOOK_SECRET", "whsec_" + "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")
    scope: dict = {}
    exec(compile(program, str(README), "exec"), scope)
    printed = capsys.readouterr().out
    assert "/files/" in printed  # the generated image's URL
    assert "https://cards.example.com/r/pre_0000000000000000000001.webp?key=" in printed
    # The receiver refuses a body that is not signed with the secret.
    from titlecard import WebhookVerificationError

    try:
        scope["receive"](b"{}", {"webhook-id": "msg_1", "webhook-timestamp": "1", "webhook-signature": "v1,x"})
    except WebhookVerificationError:
        pass
    else:
        raise AssertionError("an unsigned webhook was accepted")

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="SiteVerification")


@_attrs_define
class SiteVerification:
    """How to prove the origin is yours: either one, then POST /sites/{id}/verify.

    Attributes:
        token (str): tcv_ and 32 base62 characters.
        meta (str): The tag to put in the <head> of the home page.
        file_url (str): Or: the file to serve, whose whole content is the token.
    """

    token: str
    meta: str
    file_url: str

    def to_dict(self) -> dict[str, Any]:
        token = self.token

        meta = self.meta

        file_url = self.file_url

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "token": token,
                "meta": meta,
                "fileUrl": file_url,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        token = d.pop("token")

        meta = d.pop("meta")

        file_url = d.pop("fileUrl")

        site_verification = cls(
            token=token,
            meta=meta,
            file_url=file_url,
        )

        return site_verification

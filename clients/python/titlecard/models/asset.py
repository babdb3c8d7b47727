from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.asset_format import AssetFormat
from ..models.asset_kind import AssetKind

T = TypeVar("T", bound="Asset")


@_attrs_define
class Asset:
    """
    Attributes:
        id (str):
        kind (AssetKind):
        name (str):
        format_ (AssetFormat):
        width (int): Pixels; 0 for a font.
        height (int): Pixels; 0 for a font.
        bytes_ (int):
        created_at (datetime.datetime): ISO 8601 UTC timestamp
    """

    id: str
    kind: AssetKind
    name: str
    format_: AssetFormat
    width: int
    height: int
    bytes_: int
    created_at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        kind = self.kind.value

        name = self.name

        format_ = self.format_.value

        width = self.width

        height = self.height

        bytes_ = self.bytes_

        created_at = self.created_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "kind": kind,
                "name": name,
                "format": format_,
                "width": width,
                "height": height,
                "bytes": bytes_,
                "createdAt": created_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        kind = AssetKind(d.pop("kind"))

        name = d.pop("name")

        format_ = AssetFormat(d.pop("format"))

        width = d.pop("width")

        height = d.pop("height")

        bytes_ = d.pop("bytes")

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        asset = cls(
            id=id,
            kind=kind,
            name=name,
            format_=format_,
            width=width,
            height=height,
            bytes_=bytes_,
            created_at=created_at,
        )

        return asset

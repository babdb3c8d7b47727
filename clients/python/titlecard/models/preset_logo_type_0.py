from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="PresetLogoType0")


@_attrs_define
class PresetLogoType0:
    """
    Attributes:
        asset (str):
        corner (str):
        size (float):
    """

    asset: str
    corner: str
    size: float

    def to_dict(self) -> dict[str, Any]:
        asset = self.asset

        corner = self.corner

        size = self.size

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "asset": asset,
                "corner": corner,
                "size": size,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        asset = d.pop("asset")

        corner = d.pop("corner")

        size = d.pop("size")

        preset_logo_type_0 = cls(
            asset=asset,
            corner=corner,
            size=size,
        )

        return preset_logo_type_0

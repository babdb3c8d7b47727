from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.preset_request_logo_type_0_corner import PresetRequestLogoType0Corner
from ..types import UNSET, Unset

T = TypeVar("T", bound="PresetRequestLogoType0")


@_attrs_define
class PresetRequestLogoType0:
    """
    Attributes:
        asset (str): An image uploaded with POST /assets (kind logo keeps its transparency).
        corner (PresetRequestLogoType0Corner | Unset): Corner of the safe zone; the text keeps out of the logo and a gap
            around it. Default: PresetRequestLogoType0Corner.TOP_RIGHT.
        size (float | Unset): Logo width as a fraction of the canvas width, 0.05 to 0.3 (at most a quarter of the
            height). Default: 0.15.
    """

    asset: str
    corner: PresetRequestLogoType0Corner | Unset = (
        PresetRequestLogoType0Corner.TOP_RIGHT
    )
    size: float | Unset = 0.15

    def to_dict(self) -> dict[str, Any]:
        asset = self.asset

        corner: str | Unset = UNSET
        if not isinstance(self.corner, Unset):
            corner = self.corner.value

        size = self.size

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "asset": asset,
            }
        )
        if corner is not UNSET:
            field_dict["corner"] = corner
        if size is not UNSET:
            field_dict["size"] = size

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        asset = d.pop("asset")

        _corner = d.pop("corner", UNSET)
        corner: PresetRequestLogoType0Corner | Unset
        if isinstance(_corner, Unset):
            corner = UNSET
        else:
            corner = PresetRequestLogoType0Corner(_corner)

        size = d.pop("size", UNSET)

        preset_request_logo_type_0 = cls(
            asset=asset,
            corner=corner,
            size=size,
        )

        return preset_request_logo_type_0

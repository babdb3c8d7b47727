from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="PresetRequestPositionType1")


@_attrs_define
class PresetRequestPositionType1:
    """
    Attributes:
        x (float): Horizontal centre of the text block, 0 (left) to 1 (right).
        y (float): Vertical centre of the text block, 0 (top) to 1 (bottom).
    """

    x: float
    y: float

    def to_dict(self) -> dict[str, Any]:
        x = self.x

        y = self.y

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "x": x,
                "y": y,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        x = d.pop("x")

        y = d.pop("y")

        preset_request_position_type_1 = cls(
            x=x,
            y=y,
        )

        return preset_request_position_type_1

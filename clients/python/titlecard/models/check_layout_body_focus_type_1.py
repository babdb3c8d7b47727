from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="CheckLayoutBodyFocusType1")


@_attrs_define
class CheckLayoutBodyFocusType1:
    """
    Attributes:
        x (float): Horizontal point to keep in frame, 0 (left) to 1 (right) of the photo.
        y (float): Vertical point to keep in frame, 0 (top) to 1 (bottom) of the photo.
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

        check_layout_body_focus_type_1 = cls(
            x=x,
            y=y,
        )

        return check_layout_body_focus_type_1

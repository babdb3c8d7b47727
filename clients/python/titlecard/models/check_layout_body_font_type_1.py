from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.check_layout_body_font_type_1_system import CheckLayoutBodyFontType1System

T = TypeVar("T", bound="CheckLayoutBodyFontType1")


@_attrs_define
class CheckLayoutBodyFontType1:
    """
    Attributes:
        system (CheckLayoutBodyFontType1System):
    """

    system: CheckLayoutBodyFontType1System

    def to_dict(self) -> dict[str, Any]:
        system = self.system.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "system": system,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        system = CheckLayoutBodyFontType1System(d.pop("system"))

        check_layout_body_font_type_1 = cls(
            system=system,
        )

        return check_layout_body_font_type_1

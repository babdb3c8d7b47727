from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.preset_request_font_type_1_system import PresetRequestFontType1System

T = TypeVar("T", bound="PresetRequestFontType1")


@_attrs_define
class PresetRequestFontType1:
    """
    Attributes:
        system (PresetRequestFontType1System):
    """

    system: PresetRequestFontType1System

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
        system = PresetRequestFontType1System(d.pop("system"))

        preset_request_font_type_1 = cls(
            system=system,
        )

        return preset_request_font_type_1

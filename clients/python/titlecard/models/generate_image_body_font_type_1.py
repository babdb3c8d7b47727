from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.generate_image_body_font_type_1_system import (
    GenerateImageBodyFontType1System,
)

T = TypeVar("T", bound="GenerateImageBodyFontType1")


@_attrs_define
class GenerateImageBodyFontType1:
    """
    Attributes:
        system (GenerateImageBodyFontType1System):
    """

    system: GenerateImageBodyFontType1System

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
        system = GenerateImageBodyFontType1System(d.pop("system"))

        generate_image_body_font_type_1 = cls(
            system=system,
        )

        return generate_image_body_font_type_1

from __future__ import annotations

from collections.abc import Mapping
from io import BytesIO
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .. import types
from ..types import UNSET, File, Unset

T = TypeVar("T", bound="UploadFontBody")


@_attrs_define
class UploadFontBody:
    """
    Attributes:
        font (File): A .ttf or .otf file (not a collection or WOFF), at most 10485760 bytes (10 MB), within the bounds
            of docs/security.md: at most 5000 outline points per glyph, and per colour glyph 10000 paint operations, 64
            deep, 200000 clip points (400 on font, constraint max, naming the glyph).
        name (str | Unset): Default (also when sent empty, as a blank form field is): the file's name.
    """

    font: File
    name: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        font = self.font.to_tuple()

        name = self.name

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "font": font,
            }
        )
        if name is not UNSET:
            field_dict["name"] = name

        return field_dict

    def to_multipart(self) -> types.RequestFiles:
        files: types.RequestFiles = []

        files.append(("font", self.font.to_tuple()))

        if not isinstance(self.name, Unset):
            files.append(("name", (None, str(self.name).encode(), "text/plain")))

        for prop_name, prop in self.additional_properties.items():
            files.append((prop_name, (None, str(prop).encode(), "text/plain")))

        return files

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        font = File(payload=BytesIO(d.pop("font")))

        name = d.pop("name", UNSET)

        upload_font_body = cls(
            font=font,
            name=name,
        )

        upload_font_body.additional_properties = d
        return upload_font_body

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties

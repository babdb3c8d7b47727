from __future__ import annotations

from collections.abc import Mapping
from io import BytesIO
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .. import types
from ..models.upload_asset_body_kind import UploadAssetBodyKind
from ..types import UNSET, File, Unset

T = TypeVar("T", bound="UploadAssetBody")


@_attrs_define
class UploadAssetBody:
    """
    Attributes:
        image (File): JPEG, PNG or WebP, judged by its bytes; at most 10485760 bytes (10 MB) and 64 megapixels.
        kind (UploadAssetBodyKind | Unset): What it is for. Default: UploadAssetBodyKind.BACKGROUND.
        name (str | Unset): Default (also when sent empty, as a blank form field is): the file's name.
    """

    image: File
    kind: UploadAssetBodyKind | Unset = UploadAssetBodyKind.BACKGROUND
    name: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        image = self.image.to_tuple()

        kind: str | Unset = UNSET
        if not isinstance(self.kind, Unset):
            kind = self.kind.value

        name = self.name

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "image": image,
            }
        )
        if kind is not UNSET:
            field_dict["kind"] = kind
        if name is not UNSET:
            field_dict["name"] = name

        return field_dict

    def to_multipart(self) -> types.RequestFiles:
        files: types.RequestFiles = []

        files.append(("image", self.image.to_tuple()))

        if not isinstance(self.kind, Unset):
            files.append(("kind", (None, str(self.kind.value).encode(), "text/plain")))

        if not isinstance(self.name, Unset):
            files.append(("name", (None, str(self.name).encode(), "text/plain")))

        for prop_name, prop in self.additional_properties.items():
            files.append((prop_name, (None, str(prop).encode(), "text/plain")))

        return files

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        image = File(payload=BytesIO(d.pop("image")))

        _kind = d.pop("kind", UNSET)
        kind: UploadAssetBodyKind | Unset
        if isinstance(_kind, Unset):
            kind = UNSET
        else:
            kind = UploadAssetBodyKind(_kind)

        name = d.pop("name", UNSET)

        upload_asset_body = cls(
            image=image,
            kind=kind,
            name=name,
        )

        upload_asset_body.additional_properties = d
        return upload_asset_body

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

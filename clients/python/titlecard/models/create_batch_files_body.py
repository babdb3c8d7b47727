from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .. import types
from ..types import UNSET, Unset

T = TypeVar("T", bound="CreateBatchFilesBody")


@_attrs_define
class CreateBatchFilesBody:
    """
    Attributes:
        file (str): A header row naming /generate fields, then one row per image.
        preset (str | Unset): Applies to every row.
        asset (str | Unset): Applies to every row.
        template (str | Unset): Applies to every row.
        webhook_url (str | Unset): Also sent batch.completed.
    """

    file: str
    preset: str | Unset = UNSET
    asset: str | Unset = UNSET
    template: str | Unset = UNSET
    webhook_url: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        file = self.file

        preset = self.preset

        asset = self.asset

        template = self.template

        webhook_url = self.webhook_url

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "file": file,
            }
        )
        if preset is not UNSET:
            field_dict["preset"] = preset
        if asset is not UNSET:
            field_dict["asset"] = asset
        if template is not UNSET:
            field_dict["template"] = template
        if webhook_url is not UNSET:
            field_dict["webhookUrl"] = webhook_url

        return field_dict

    def to_multipart(self) -> types.RequestFiles:
        files: types.RequestFiles = []

        files.append(("file", (None, str(self.file).encode(), "text/plain")))

        if not isinstance(self.preset, Unset):
            files.append(("preset", (None, str(self.preset).encode(), "text/plain")))

        if not isinstance(self.asset, Unset):
            files.append(("asset", (None, str(self.asset).encode(), "text/plain")))

        if not isinstance(self.template, Unset):
            files.append(
                ("template", (None, str(self.template).encode(), "text/plain"))
            )

        if not isinstance(self.webhook_url, Unset):
            files.append(
                ("webhookUrl", (None, str(self.webhook_url).encode(), "text/plain"))
            )

        for prop_name, prop in self.additional_properties.items():
            files.append((prop_name, (None, str(prop).encode(), "text/plain")))

        return files

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        file = d.pop("file")

        preset = d.pop("preset", UNSET)

        asset = d.pop("asset", UNSET)

        template = d.pop("template", UNSET)

        webhook_url = d.pop("webhookUrl", UNSET)

        create_batch_files_body = cls(
            file=file,
            preset=preset,
            asset=asset,
            template=template,
            webhook_url=webhook_url,
        )

        create_batch_files_body.additional_properties = d
        return create_batch_files_body

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

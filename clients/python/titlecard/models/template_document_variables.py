from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.template_document_variables_image_variable import (
        TemplateDocumentVariablesImageVariable,
    )
    from ..models.template_document_variables_text_variable import (
        TemplateDocumentVariablesTextVariable,
    )


T = TypeVar("T", bound="TemplateDocumentVariables")


@_attrs_define
class TemplateDocumentVariables:
    """Variables filled by `fields`; title and subtitle always exist."""

    additional_properties: dict[
        str,
        TemplateDocumentVariablesImageVariable | TemplateDocumentVariablesTextVariable,
    ] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.template_document_variables_text_variable import (
            TemplateDocumentVariablesTextVariable,
        )

        field_dict: dict[str, Any] = {}
        for prop_name, prop in self.additional_properties.items():
            if isinstance(prop, TemplateDocumentVariablesTextVariable):
                field_dict[prop_name] = prop.to_dict()
            else:
                field_dict[prop_name] = prop.to_dict()

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.template_document_variables_image_variable import (
            TemplateDocumentVariablesImageVariable,
        )
        from ..models.template_document_variables_text_variable import (
            TemplateDocumentVariablesTextVariable,
        )

        d = dict(src_dict)
        template_document_variables = cls()

        additional_properties = {}
        for prop_name, prop_dict in d.items():

            def _parse_additional_property(
                data: object,
            ) -> (
                TemplateDocumentVariablesImageVariable
                | TemplateDocumentVariablesTextVariable
            ):
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    additional_property_text_variable = (
                        TemplateDocumentVariablesTextVariable.from_dict(data)
                    )

                    return additional_property_text_variable
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                if not isinstance(data, dict):
                    raise TypeError()
                additional_property_image_variable = (
                    TemplateDocumentVariablesImageVariable.from_dict(data)
                )

                return additional_property_image_variable

            additional_property = _parse_additional_property(prop_dict)

            additional_properties[prop_name] = additional_property

        template_document_variables.additional_properties = additional_properties
        return template_document_variables

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(
        self, key: str
    ) -> TemplateDocumentVariablesImageVariable | TemplateDocumentVariablesTextVariable:
        return self.additional_properties[key]

    def __setitem__(
        self,
        key: str,
        value: TemplateDocumentVariablesImageVariable
        | TemplateDocumentVariablesTextVariable,
    ) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties

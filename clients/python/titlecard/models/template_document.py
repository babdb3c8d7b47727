from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.template_document_aspect import TemplateDocumentAspect
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.template_document_gradient_layer import TemplateDocumentGradientLayer
    from ..models.template_document_image_layer import TemplateDocumentImageLayer
    from ..models.template_document_logo_layer import TemplateDocumentLogoLayer
    from ..models.template_document_rect_layer import TemplateDocumentRectLayer
    from ..models.template_document_size import TemplateDocumentSize
    from ..models.template_document_text_layer import TemplateDocumentTextLayer
    from ..models.template_document_variables import TemplateDocumentVariables


T = TypeVar("T", bound="TemplateDocument")


@_attrs_define
class TemplateDocument:
    """
    Attributes:
        name (str):
        layers (list[TemplateDocumentGradientLayer | TemplateDocumentImageLayer | TemplateDocumentLogoLayer |
            TemplateDocumentRectLayer | TemplateDocumentTextLayer]): Painted in order.
        aspect (TemplateDocumentAspect | Unset): The aspect used when the request names none. Default:
            TemplateDocumentAspect.OG.
        size (TemplateDocumentSize | Unset): A canvas of its own instead of aspect, px: each side 200 to 2400, at most 4
            megapixels. Used when the request names no aspect; its safe zone keeps 5% margins.
        background (str | Unset): The canvas before the first layer paints. Default: '#ffffff'.
        variables (TemplateDocumentVariables | Unset): Variables filled by `fields`; title and subtitle always exist.
    """

    name: str
    layers: list[
        TemplateDocumentGradientLayer
        | TemplateDocumentImageLayer
        | TemplateDocumentLogoLayer
        | TemplateDocumentRectLayer
        | TemplateDocumentTextLayer
    ]
    aspect: TemplateDocumentAspect | Unset = TemplateDocumentAspect.OG
    size: TemplateDocumentSize | Unset = UNSET
    background: str | Unset = "#ffffff"
    variables: TemplateDocumentVariables | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.template_document_gradient_layer import (
            TemplateDocumentGradientLayer,
        )
        from ..models.template_document_image_layer import TemplateDocumentImageLayer
        from ..models.template_document_rect_layer import TemplateDocumentRectLayer
        from ..models.template_document_text_layer import TemplateDocumentTextLayer

        name = self.name

        layers = []
        for layers_item_data in self.layers:
            layers_item: dict[str, Any]
            if (
                isinstance(layers_item_data, TemplateDocumentImageLayer)
                or isinstance(layers_item_data, TemplateDocumentRectLayer)
                or isinstance(layers_item_data, TemplateDocumentGradientLayer)
                or isinstance(layers_item_data, TemplateDocumentTextLayer)
            ):
                layers_item = layers_item_data.to_dict()
            else:
                layers_item = layers_item_data.to_dict()

            layers.append(layers_item)

        aspect: str | Unset = UNSET
        if not isinstance(self.aspect, Unset):
            aspect = self.aspect.value

        size: dict[str, Any] | Unset = UNSET
        if not isinstance(self.size, Unset):
            size = self.size.to_dict()

        background = self.background

        variables: dict[str, Any] | Unset = UNSET
        if not isinstance(self.variables, Unset):
            variables = self.variables.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "layers": layers,
            }
        )
        if aspect is not UNSET:
            field_dict["aspect"] = aspect
        if size is not UNSET:
            field_dict["size"] = size
        if background is not UNSET:
            field_dict["background"] = background
        if variables is not UNSET:
            field_dict["variables"] = variables

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.template_document_gradient_layer import (
            TemplateDocumentGradientLayer,
        )
        from ..models.template_document_image_layer import TemplateDocumentImageLayer
        from ..models.template_document_logo_layer import TemplateDocumentLogoLayer
        from ..models.template_document_rect_layer import TemplateDocumentRectLayer
        from ..models.template_document_size import TemplateDocumentSize
        from ..models.template_document_text_layer import TemplateDocumentTextLayer
        from ..models.template_document_variables import TemplateDocumentVariables

        d = dict(src_dict)
        name = d.pop("name")

        layers = []
        _layers = d.pop("layers")
        for layers_item_data in _layers:

            def _parse_layers_item(
                data: object,
            ) -> (
                TemplateDocumentGradientLayer
                | TemplateDocumentImageLayer
                | TemplateDocumentLogoLayer
                | TemplateDocumentRectLayer
                | TemplateDocumentTextLayer
            ):
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    layers_item_image_layer = TemplateDocumentImageLayer.from_dict(data)

                    return layers_item_image_layer
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    layers_item_rect_layer = TemplateDocumentRectLayer.from_dict(data)

                    return layers_item_rect_layer
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    layers_item_gradient_layer = (
                        TemplateDocumentGradientLayer.from_dict(data)
                    )

                    return layers_item_gradient_layer
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    layers_item_text_layer = TemplateDocumentTextLayer.from_dict(data)

                    return layers_item_text_layer
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                if not isinstance(data, dict):
                    raise TypeError()
                layers_item_logo_layer = TemplateDocumentLogoLayer.from_dict(data)

                return layers_item_logo_layer

            layers_item = _parse_layers_item(layers_item_data)

            layers.append(layers_item)

        _aspect = d.pop("aspect", UNSET)
        aspect: TemplateDocumentAspect | Unset
        if isinstance(_aspect, Unset):
            aspect = UNSET
        else:
            aspect = TemplateDocumentAspect(_aspect)

        _size = d.pop("size", UNSET)
        size: TemplateDocumentSize | Unset
        if isinstance(_size, Unset):
            size = UNSET
        else:
            size = TemplateDocumentSize.from_dict(_size)

        background = d.pop("background", UNSET)

        _variables = d.pop("variables", UNSET)
        variables: TemplateDocumentVariables | Unset
        if isinstance(_variables, Unset):
            variables = UNSET
        else:
            variables = TemplateDocumentVariables.from_dict(_variables)

        template_document = cls(
            name=name,
            layers=layers,
            aspect=aspect,
            size=size,
            background=background,
            variables=variables,
        )

        return template_document

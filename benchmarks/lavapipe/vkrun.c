/*
 * vkrun.c -- dispatch one SPIR-V compute shader on lavapipe, for benchmarks/lavapipe.py.
 *
 * usage: vkrun SHADER.spv ENTRY GX GY GZ REPEAT KIND:BINDING:FILE...
 *   KIND r  a storage buffer the shader reads, filled from FILE
 *        w  a storage buffer filled from FILE and written back to FILE after the last dispatch
 *        z  a storage buffer cleared to zero before every dispatch, written back to FILE
 *        u  a uniform buffer (a cbuffer), filled from FILE
 *   BINDING  the binding in descriptor set 0
 *
 * Runs the dispatch once to warm up, then REPEAT times, each submitted alone and waited for
 * with a fence; prints the seconds of each of those REPEAT on stdout, one a line. Lavapipe's
 * device memory is host memory: the buffers are host-visible, filled once, never copied
 * again, so the times are the dispatches' own, as shc's are.
 */
#include <vulkan/vulkan.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CHECK(call)                                                                    \
    do {                                                                               \
        VkResult result_ = (call);                                                     \
        if (result_ != VK_SUCCESS) {                                                   \
            fprintf(stderr, "vkrun: %s failed (VkResult %d)\n", #call, (int)result_);  \
            exit(1);                                                                   \
        }                                                                              \
    } while (0)

#define MAX_BUFFERS 16

struct buffer {
    char kind;
    unsigned binding;
    const char *path;
    size_t size;
    VkBuffer handle;
    VkDeviceMemory memory;
    void *mapped;
};

static void fail(const char *message)
{
    fprintf(stderr, "vkrun: %s\n", message);
    exit(1);
}

static void *read_file(const char *path, size_t *size)
{
    FILE *file = fopen(path, "rb");
    if (!file) fail("cannot open an input file");
    fseek(file, 0, SEEK_END);
    *size = (size_t)ftell(file);
    fseek(file, 0, SEEK_SET);
    void *data = malloc(*size ? *size : 1);
    if (*size && fread(data, 1, *size, file) != *size) fail("cannot read an input file");
    fclose(file);
    return data;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static uint32_t host_memory_type(VkPhysicalDevice gpu, uint32_t allowed)
{
    VkPhysicalDeviceMemoryProperties properties;
    vkGetPhysicalDeviceMemoryProperties(gpu, &properties);
    VkMemoryPropertyFlags wanted = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    for (uint32_t i = 0; i < properties.memoryTypeCount; ++i)
        if ((allowed & (1u << i)) && (properties.memoryTypes[i].propertyFlags & wanted) == wanted) return i;
    fail("no host-visible coherent memory");
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 8) fail("usage: vkrun SHADER.spv ENTRY GX GY GZ REPEAT KIND:BINDING:FILE...");
    const char *entry = argv[2];
    uint32_t groups[3] = {(uint32_t)atoi(argv[3]), (uint32_t)atoi(argv[4]), (uint32_t)atoi(argv[5])};
    int repeat = atoi(argv[6]);
    int count = argc - 7;
    if (count > MAX_BUFFERS) fail("too many buffers");

    VkApplicationInfo app = {VK_STRUCTURE_TYPE_APPLICATION_INFO, .pApplicationName = "vkrun",
                             .apiVersion = VK_API_VERSION_1_1};
    VkInstanceCreateInfo instance_info = {VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pApplicationInfo = &app};
    VkInstance instance;
    CHECK(vkCreateInstance(&instance_info, NULL, &instance));

    uint32_t gpu_count = 8;
    VkPhysicalDevice gpus[8];
    vkEnumeratePhysicalDevices(instance, &gpu_count, gpus);
    VkPhysicalDevice gpu = VK_NULL_HANDLE;
    VkPhysicalDeviceProperties gpu_properties;
    for (uint32_t i = 0; i < gpu_count && gpu == VK_NULL_HANDLE; ++i) {
        vkGetPhysicalDeviceProperties(gpus[i], &gpu_properties);
        if (strstr(gpu_properties.deviceName, "llvmpipe")) gpu = gpus[i];
    }
    if (gpu == VK_NULL_HANDLE) fail("no lavapipe (llvmpipe) device");
    fprintf(stderr, "vkrun: %s\n", gpu_properties.deviceName);

    uint32_t family_count = 16, family = UINT32_MAX;
    VkQueueFamilyProperties families[16];
    vkGetPhysicalDeviceQueueFamilyProperties(gpu, &family_count, families);
    for (uint32_t i = 0; i < family_count && family == UINT32_MAX; ++i)
        if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) family = i;
    if (family == UINT32_MAX) fail("no compute queue");

    float priority = 1.0f;
    VkDeviceQueueCreateInfo queue_info = {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, .queueFamilyIndex = family,
                                          .queueCount = 1, .pQueuePriorities = &priority};
    VkDeviceCreateInfo device_info = {VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .queueCreateInfoCount = 1,
                                      .pQueueCreateInfos = &queue_info};
    VkDevice device;
    CHECK(vkCreateDevice(gpu, &device_info, NULL, &device));
    VkQueue queue;
    vkGetDeviceQueue(device, family, 0, &queue);

    struct buffer buffers[MAX_BUFFERS];
    VkDescriptorSetLayoutBinding layout_bindings[MAX_BUFFERS];
    for (int i = 0; i < count; ++i) {
        struct buffer *b = &buffers[i];
        char *spec = argv[7 + i];
        char *colon = strchr(spec, ':');
        char *second = colon ? strchr(colon + 1, ':') : NULL;
        if (!colon || !second || colon != spec + 1 || !strchr("rwzu", spec[0]))
            fail("a buffer is not KIND:BINDING:FILE");
        b->kind = spec[0];
        b->binding = (unsigned)atoi(colon + 1);
        b->path = second + 1;
        void *data = read_file(b->path, &b->size);
        size_t allocated = (b->size + 15) & ~(size_t)15;
        if (allocated == 0) allocated = 16;
        VkBufferCreateInfo info = {VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = allocated,
                                   .usage = (b->kind == 'u' ? VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT
                                                            : VK_BUFFER_USAGE_STORAGE_BUFFER_BIT) |
                                            VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                   .sharingMode = VK_SHARING_MODE_EXCLUSIVE};
        CHECK(vkCreateBuffer(device, &info, NULL, &b->handle));
        VkMemoryRequirements needs;
        vkGetBufferMemoryRequirements(device, b->handle, &needs);
        VkMemoryAllocateInfo allocation = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .allocationSize = needs.size,
                                           .memoryTypeIndex = host_memory_type(gpu, needs.memoryTypeBits)};
        CHECK(vkAllocateMemory(device, &allocation, NULL, &b->memory));
        CHECK(vkBindBufferMemory(device, b->handle, b->memory, 0));
        CHECK(vkMapMemory(device, b->memory, 0, VK_WHOLE_SIZE, 0, &b->mapped));
        memset(b->mapped, 0, allocated);
        memcpy(b->mapped, data, b->size);
        free(data);
        layout_bindings[i] = (VkDescriptorSetLayoutBinding){
            .binding = b->binding, .descriptorCount = 1, .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT,
            .descriptorType = b->kind == 'u' ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER};
    }

    VkDescriptorSetLayoutCreateInfo set_layout_info = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                                       .bindingCount = (uint32_t)count, .pBindings = layout_bindings};
    VkDescriptorSetLayout set_layout;
    CHECK(vkCreateDescriptorSetLayout(device, &set_layout_info, NULL, &set_layout));
    VkPipelineLayoutCreateInfo pipeline_layout_info = {VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                                       .setLayoutCount = 1, .pSetLayouts = &set_layout};
    VkPipelineLayout pipeline_layout;
    CHECK(vkCreatePipelineLayout(device, &pipeline_layout_info, NULL, &pipeline_layout));

    size_t code_size;
    uint32_t *code = read_file(argv[1], &code_size);
    VkShaderModuleCreateInfo module_info = {VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = code_size,
                                            .pCode = code};
    VkShaderModule shader;
    CHECK(vkCreateShaderModule(device, &module_info, NULL, &shader));
    VkComputePipelineCreateInfo pipeline_info = {
        VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                  .module = shader, .pName = entry},
        .layout = pipeline_layout};
    VkPipeline pipeline;
    CHECK(vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &pipeline_info, NULL, &pipeline));

    VkDescriptorPoolSize pool_sizes[2] = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, MAX_BUFFERS},
                                          {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, MAX_BUFFERS}};
    VkDescriptorPoolCreateInfo pool_info = {VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = 1,
                                            .poolSizeCount = 2, .pPoolSizes = pool_sizes};
    VkDescriptorPool pool;
    CHECK(vkCreateDescriptorPool(device, &pool_info, NULL, &pool));
    VkDescriptorSetAllocateInfo set_info = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, .descriptorPool = pool,
                                            .descriptorSetCount = 1, .pSetLayouts = &set_layout};
    VkDescriptorSet set;
    CHECK(vkAllocateDescriptorSets(device, &set_info, &set));
    VkDescriptorBufferInfo infos[MAX_BUFFERS];
    VkWriteDescriptorSet writes[MAX_BUFFERS];
    for (int i = 0; i < count; ++i) {
        infos[i] = (VkDescriptorBufferInfo){buffers[i].handle, 0, VK_WHOLE_SIZE};
        writes[i] = (VkWriteDescriptorSet){VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set,
                                           .dstBinding = buffers[i].binding, .descriptorCount = 1,
                                           .descriptorType = layout_bindings[i].descriptorType,
                                           .pBufferInfo = &infos[i]};
    }
    vkUpdateDescriptorSets(device, (uint32_t)count, writes, 0, NULL);

    VkCommandPoolCreateInfo command_pool_info = {VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                                 .queueFamilyIndex = family};
    VkCommandPool command_pool;
    CHECK(vkCreateCommandPool(device, &command_pool_info, NULL, &command_pool));
    VkCommandBufferAllocateInfo command_info = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                                .commandPool = command_pool,
                                                .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY, .commandBufferCount = 1};
    VkCommandBuffer commands;
    CHECK(vkAllocateCommandBuffers(device, &command_info, &commands));
    VkCommandBufferBeginInfo begin = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    CHECK(vkBeginCommandBuffer(commands, &begin));
    for (int i = 0; i < count; ++i)
        if (buffers[i].kind == 'z') vkCmdFillBuffer(commands, buffers[i].handle, 0, VK_WHOLE_SIZE, 0);
    VkMemoryBarrier cleared = {VK_STRUCTURE_TYPE_MEMORY_BARRIER, .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                               .dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT};
    vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1,
                         &cleared, 0, NULL, 0, NULL);
    vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_layout, 0, 1, &set, 0, NULL);
    vkCmdDispatch(commands, groups[0], groups[1], groups[2]);
    CHECK(vkEndCommandBuffer(commands));

    VkFenceCreateInfo fence_info = {VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence fence;
    CHECK(vkCreateFence(device, &fence_info, NULL, &fence));
    VkSubmitInfo submit = {VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &commands};
    for (int run = 0; run <= repeat; ++run) {
        double start = now();
        CHECK(vkQueueSubmit(queue, 1, &submit, fence));
        CHECK(vkWaitForFences(device, 1, &fence, VK_TRUE, UINT64_MAX));
        double seconds = now() - start;
        CHECK(vkResetFences(device, 1, &fence));
        if (run) printf("%.9f\n", seconds);
    }

    for (int i = 0; i < count; ++i) {
        if (buffers[i].kind != 'w' && buffers[i].kind != 'z') continue;
        FILE *file = fopen(buffers[i].path, "wb");
        if (!file || fwrite(buffers[i].mapped, 1, buffers[i].size, file) != buffers[i].size) fail("cannot write back");
        fclose(file);
    }
    vkDeviceWaitIdle(device);
    return 0;
}
